// The T2I journey: import portraits made without an API, label their faces in the browser with onnxruntime-web
// (forced WASM; the WebGPU path is e2e/faces-webgpu.spec.ts), read the T2I scores, and generate images through the
// emulated OpenAI Images endpoint. The FairFace stand-ins and photos come from ../shared/models; the journeys skip
// when it is absent.
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { emulatorPort } from "../playwright.config";
import { registerImportModel } from "./pages/models";
import { hasShared, importPortraits } from "./pages/portraits";
import { SHARED_MODELS as SHARED } from "./pages/suite-run";

async function labelAndCheck(page: Page, runId: string, backend: RegExp, labelledBy: { runtime: string; standIn: string }) {
  await expect(page.getByTestId("backend")).toHaveText(backend, { timeout: 60_000 });
  await page.getByRole("button", { name: "Start labelling" }).click();
  await expect(page.getByTestId("label-phase")).toHaveText("all images labelled", { timeout: 60_000 });
  await expect(page.getByTestId("labelled")).toHaveText("4 images · 2 faces");
  await expect(page.getByTestId("todo")).toHaveText("0 of 4 images");
  await expect(page.getByTestId("speed")).toHaveText(/[1-9][\d.]* faces\/s/);

  await page.goto(`/runs/${runId}`);
  const labelling = page.getByTestId("labelling");
  await expect(labelling).toContainText("Labelled (with faces)2");
  await expect(labelling).toContainText("No face (excluded)2");
  await expect(labelling).toContainText("Faces2");
  // What labelled the faces: the stand-in, marked as not FairFace, with its checksum, the detector and the runtime.
  const provenance = page.getByTestId("label-provenance");
  await expect(provenance).toContainText(`Classifier ${labelledBy.standIn}`);
  await expect(provenance).toContainText("stand-in — not FairFace");
  await expect(provenance).toContainText(`${labelledBy.runtime} (2 faces)`);
  await expect(provenance).toContainText("Detector: UltraFace RFB-320");
  // T2I scores: crime rate has both attributes; 2 faces scored, the 2 no-face images counted as refused.
  const rows = page.getByTestId("score-row");
  await expect(rows).toHaveCount(4);
  const objectiveRace = rows.filter({ hasText: /objective.*race/i });
  // columns: model, test, context, paper column, attribute, n, refused, 5 scores (each may carry "±" below), breakdown
  const cells = (await objectiveRace.locator("td").allInnerTexts()).map((t) => t.trim().split("\n")[0]);
  expect(cells.slice(5, 7)).toEqual(["2", "0"]); // n, refused
  for (const v of cells.slice(7, 12)) expect(v).toMatch(/^\d+(\.\d+)?$/);
  const subjective = (
    await rows
      .filter({ hasText: /subjective.*gender/i })
      .locator("td")
      .allInnerTexts()
  ).map((t) => t.trim());
  expect(subjective.slice(5, 7)).toEqual(["2", "2"]);
  // The third label source: corrected for FairFace's measured errors — refused until enough faces are reviewed.
  await page.getByLabel("Face labels").selectOption("corrected");
  await expect(page.getByTestId("corrected-refused").first()).toContainText(/too few reviewed faces .*at least 10 per class/, { timeout: 30_000 });
  await page.getByLabel("Face labels").selectOption("model");
  await expect(rows).toHaveCount(4);

  // One JSONL line per face (and one null line per image without a face).
  const res = await page.request.get(`/api/runs/${runId}/export?format=jsonl`);
  const lines = (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines).toHaveLength(8);
  expect(lines.filter((l) => l.answer === null)).toHaveLength(4);
  expect(lines[0]).toMatchObject({ modality: "t2i", context: null, statistic: "Crime Rate" });
  // Each face line names its classifier's sha256, the detector and the runtime.
  for (const l of lines.filter((x) => x.faceId !== null))
    expect(l).toMatchObject({
      classifier: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      detector: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      runtime: labelledBy.runtime,
    });
}

test.describe("face labelling on WASM", () => {
  test.skip(!hasShared, "../shared/models is not present");

  test("a FairFace file chosen in the browser is checked, kept, and used with the WASM backend forced", async ({ page }) => {
    await registerImportModel(page, "midjourney-wasm", "Midjourney (WASM)");
    const runId = await importPortraits(page, "midjourney-wasm", "Midjourney portraits (WASM)");
    await page.goto(`/label?run=${runId}&backend=wasm`);
    await expect(page.getByTestId("model-missing")).toBeVisible({ timeout: 60_000 });
    // A wrong-shaped model is refused and not kept.
    await page.getByLabel("FairFace model file (.onnx)").setInputFiles(path.join(SHARED, "ultraface-version-RFB-320.onnx"));
    await expect(page.getByRole("alert").filter({ hasText: "cannot be used as FairFace" })).toBeVisible();
    await page.getByLabel("FairFace model file (.onnx)").setInputFiles(path.join(SHARED, "fairface-standin-3head.onnx"));
    await expect(page.getByTestId("classifier")).toContainText("fairface-standin-3head.onnx (kept in this browser) · three heads");
    // Kept in browser storage: a reload finds it without asking again.
    await page.reload();
    await expect(page.getByTestId("classifier")).toContainText("kept in this browser", { timeout: 60_000 });
    await labelAndCheck(page, runId, /^WASM — SIMD, \d+ threads?, forced$/, { runtime: "browser-wasm", standIn: "FairFace stand-in (three heads)" });
  });
});

test("a T2I run against the emulated OpenAI Images endpoint generates and stores every image", async ({ page }) => {
  await page.goto("/models");
  await page.locator("form[data-hydrated][data-testid=model-form]").waitFor();
  await page.getByLabel("Kind").selectOption("t2i");
  await page.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
  await page.getByLabel("Id", { exact: true }).fill("emu-image");
  await page.getByLabel("Display name").fill("Emulated image model");
  await page.getByLabel("Provider model id").fill("emu-image");
  await page.getByLabel("Base URL").fill(`http://127.0.0.1:${emulatorPort}/v1`);
  await page.getByLabel("Image width (px)").fill("256");
  await page.getByLabel("Image height (px)").fill("256");
  await page.getByLabel("USD / image").fill("0.04");
  await page.getByRole("button", { name: "Save model" }).click();
  await expect(page.getByText("Saved Emulated image model.")).toBeVisible();

  await page.goto("/runs/new?kind=t2i");
  await page.locator("form[data-hydrated]").waitFor();
  // the form opens with the built-in synthetic model ticked: checkboxes, so it is unticked to launch emu-image alone
  for (const box of await page.locator('input[name="models"]:checked').all()) await box.uncheck();
  await page.locator('input[name="models"][value="emu-image"]').check();
  // A preset fills every field; then one is changed (the preset becomes "custom").
  await page.getByLabel("Preset").selectOption("smoke");
  await page.locator('input[name="tests"][value="subjective"]').uncheck();
  await expect(page.getByTestId("estimate")).toContainText("38 images");
  await expect(page.getByTestId("estimate")).toContainText("$1.52");
  await page.getByRole("button", { name: "Launch T2I run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });
  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("labelling")).toContainText("Images38");
  await expect(page.getByTestId("labelling")).toContainText("Not labelled yet38");
  await expect(page.getByTestId("run-image")).toHaveCount(24);
  const img = await page.request.get(
    await page
      .getByTestId("run-image")
      .first()
      .locator("img")
      .getAttribute("src")
      .then((s) => s!),
  );
  expect(img.headers()["content-type"]).toBe("image/png");
});

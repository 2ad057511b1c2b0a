// The T2I journey: import portraits made without an API, label their faces in the browser with onnxruntime-web
// (WebGPU on SwiftShader, then forced WASM), read the T2I scores. The FairFace stand-ins and photos come from
// ../shared/models; the journeys skip when it is absent.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { zipSync } from "fflate";
import { emulatorPort } from "../playwright.config";
import { registerImportModel } from "./pages/models";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "fairface-standin-single18.onnx"));
const photo = (file: string) => readFileSync(path.join(SHARED, "test-images", file));

/** Imports four photos (two faces, two without a face at 0.95) for `model` into a new run; returns the run id. */
async function importPortraits(page: Page, model: string, runName: string) {
  await page.goto("/runs/import");
  await page.locator("form[data-hydrated]").waitFor();
  await page.getByLabel("Model").selectOption(model);
  await page.getByLabel("Run name").fill(runName);
  const files = [
    { name: "objective__crime-rate__highest__1.png", mimeType: "image/png", buffer: photo("astronaut-eileen-collins.png") },
    { name: "objective__crime-rate__lowest__1.jpg", mimeType: "image/jpeg", buffer: photo("grace-hopper-512.jpg") },
    { name: "subjective__crime-rate__highest__1.png", mimeType: "image/png", buffer: photo("no-face-coffee.png") },
    { name: "subjective__crime-rate__lowest__1.png", mimeType: "image/png", buffer: photo("cat-chelsea.png") },
  ];
  // A file that does not follow the naming scheme — and has the same content as another one — is shown in the
  // preview before anything is uploaded, and nothing can be imported.
  await page
    .getByLabel("Files or zip archives")
    .setInputFiles([...files, { name: "crime-rate-highest.png", mimeType: "image/png", buffer: photo("no-face-coffee.png") }]);
  await expect(page.getByText("2 problems")).toBeVisible();
  await expect(page.getByText(/crime-rate-highest\.png/).first()).toBeVisible();
  await expect(page.getByText(/same content as subjective__crime-rate__highest__1\.png/)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Import/ })).toBeDisabled();
  // Inside a zip too: two entries with the same bytes are found before upload.
  const twin = new Uint8Array(photo("astronaut-eileen-collins.png"));
  const twins = Buffer.from(zipSync({ "objective__crime-rate__highest__1.png": twin, "objective__crime-rate__highest__2.png": twin }));
  await page.getByLabel("Files or zip archives").setInputFiles([{ name: "twins.zip", mimeType: "application/zip", buffer: twins }]);
  await expect(page.getByText(/same content as twins\.zip\/objective__crime-rate__highest__1\.png/)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Import/ })).toBeDisabled();

  await page.getByLabel("Files or zip archives").setInputFiles(files);
  const preview = page.getByRole("table", { name: "Mapping preview" });
  await expect(preview.getByRole("row")).toHaveCount(5);
  await expect(preview).toContainText("Crime Rate");
  await page.getByRole("button", { name: "Import 4 images" }).click();
  await expect(page.getByText("Imported 4 images (mapped by file names).")).toBeVisible({ timeout: 30_000 });
  const href = await page.getByRole("link", { name: "Open the run" }).getAttribute("href");
  return href!.split("/").pop()!;
}

/** Imports the astronaut photo (one face) for `model` into a new run; returns the run id. */
async function importOne(page: Page, model: string, runName: string) {
  await page.goto("/runs/import");
  await page.locator("form[data-hydrated]").waitFor();
  await page.getByLabel("Model").selectOption(model);
  await page.getByLabel("Run name").fill(runName);
  await page
    .getByLabel("Files or zip archives")
    .setInputFiles([{ name: "objective__crime-rate__highest__1.png", mimeType: "image/png", buffer: photo("astronaut-eileen-collins.png") }]);
  await page.getByRole("button", { name: "Import 1 image" }).click();
  await expect(page.getByText(/Imported 1 image/)).toBeVisible({ timeout: 30_000 });
  const href = await page.getByRole("link", { name: "Open the run" }).getAttribute("href");
  return href!.split("/").pop()!;
}

/** Labels a one-image run on the Label page with `backend` forced, within `limitMs`; returns how long labelling took. */
async function labelOne(page: Page, runId: string, backend: "wasm" | "webgpu", shown: RegExp, limitMs: number): Promise<number> {
  await page.goto(`/label?run=${runId}&backend=${backend}`);
  await expect(page.getByTestId("backend")).toHaveText(shown, { timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Start labelling" })).toBeEnabled({ timeout: 60_000 });
  const t0 = Date.now();
  await page.getByRole("button", { name: "Start labelling" }).click();
  await expect(page.getByTestId("label-phase")).toHaveText("all images labelled", { timeout: limitMs });
  const ms = Date.now() - t0;
  await expect(page.getByTestId("labelled")).toHaveText("1 images · 1 faces");
  return ms;
}

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

test.describe("importing portraits and opening the Label page", () => {
  test.skip(!hasShared, "../shared/models is not present");

  test("import portraits for a Midjourney model, see what is missing; the Label page explains its backend and the absent FairFace", async ({ page }) => {
    await registerImportModel(page, "midjourney-e2e", "Midjourney (e2e)");
    const runId = await importPortraits(page, "midjourney-e2e", "Midjourney portraits");

    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId("run-image")).toHaveCount(4);
    // FairFace's absence is an answer, not an error: the Label page loads without a console error.
    const consoleErrors: string[] = [];
    page.on("console", (m) => (m.type() === "error" ? consoleErrors.push(m.text()) : undefined));
    await page.getByRole("link", { name: "Label faces" }).click();
    await expect(page).toHaveURL(new RegExp(`/label\\?run=${runId}`));
    // Auto prefers WASM over a software WebGPU adapter (SwiftShader here) and says so; WebGPU is forced below.
    await expect(page.getByTestId("backend")).toHaveText(/^WASM — .*software WebGPU adapter/, { timeout: 60_000 });

    // No FairFace file anywhere: the page says so, and labels nothing.
    await expect(page.getByTestId("model-missing")).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText("FairFace model not installed").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Start labelling" })).toBeDisabled();
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
    expect(consoleErrors).toEqual([]);
  });
});

/** How many times the WASM time of the same image SwiftShader's software WebGPU may take (measured ≈ 6–10×). */
const WEBGPU_SLOWDOWN_ALLOWED = 40;

test.describe("face labelling on WebGPU (SwiftShader)", () => {
  test.skip(!hasShared, "../shared/models is not present");
  // playwright.config.ts launches Chromium with the SwiftShader WebGPU flags.

  test("the WebGPU path labels a face as WASM does, within a limit taken from this machine's own WASM speed", async ({ page }) => {
    // The smallest work that proves the WebGPU code path: one photo with one face. SwiftShader renders in software,
    // so how long it takes depends on the machine (and on what else it is doing): the same photo is labelled on WASM
    // first, and WebGPU gets a multiple of that time — a hang fails, a slow machine does not.
    await registerImportModel(page, "portrait-gpu", "Portrait (WebGPU)");
    const wasmRun = await importOne(page, "portrait-gpu", "One face (WASM)");
    const gpuRun = await importOne(page, "portrait-gpu", "One face (WebGPU)");
    // The stand-in classifier, served from a test-only path in place of the server's FairFace file.
    await page.route("**/api/face-models/fairface", (route) =>
      route.fulfill({ status: 200, contentType: "application/octet-stream", body: readFileSync(path.join(SHARED, "fairface-standin-single18.onnx")) }),
    );
    const wasmMs = await labelOne(page, wasmRun, "wasm", /^WASM — .*forced/, 120_000);
    const limit = Math.max(60_000, WEBGPU_SLOWDOWN_ALLOWED * wasmMs);
    test.setTimeout(test.info().timeout + limit);
    await labelOne(page, gpuRun, "webgpu", /^WebGPU — .*forced/, limit);

    // What labelled it, as the run page shows it; and the same labels as WASM gave the same photo.
    await page.goto(`/runs/${gpuRun}`);
    const provenance = page.getByTestId("label-provenance");
    await expect(provenance).toContainText("Classifier FairFace stand-in (single output)");
    await expect(provenance).toContainText("browser-webgpu (1 faces)");
    const answers = async (runId: string) =>
      (await (await page.request.get(`/api/runs/${runId}/export?format=jsonl`)).text())
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .map((l: { attribute: string; answer: string | null; runtime?: string }) => `${l.attribute}=${l.answer}`)
        .sort();
    expect(await answers(gpuRun)).toEqual(await answers(wasmRun));
  });
});

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

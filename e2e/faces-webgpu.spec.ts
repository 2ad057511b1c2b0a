// The Label page on a software WebGPU adapter (SwiftShader): its automatic choice of backend, and the WebGPU code
// path labelling a face as WASM does. Only these journeys launch Chromium with the adapter's flags
// (playwright.config.ts chromiumLaunch): with them every page is composited through SwiftShader, at a CPU cost the
// other journeys need not pay.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { chromiumLaunch } from "../playwright.config";
import { registerImportModel } from "./pages/models";
import { hasShared, importOne, importPortraits, labelOne } from "./pages/portraits";
import { SHARED_MODELS as SHARED } from "./pages/suite-run";

test.use({ launchOptions: chromiumLaunch({ webgpu: true }) });

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

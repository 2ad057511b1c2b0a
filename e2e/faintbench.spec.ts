// The FAIntbench journey: browse the prompts, launch the suite on the built-in synthetic image model (no key), label
// the faces in the browser (UltraFace + the FairFace stand-in, WASM), correct an age on the Review page with the
// suite's keys, and read implicit / explicit / η — with the reviewed labels too. A faces run is not the paper's
// instrument (CLIP on whole images), so the paper's seven models are not shown beside it, and the table says why.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { zipSync } from "fflate";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { registerImportModel } from "./pages/models";
import { buildClipStandIn } from "../tests/helpers/clip-standin";
import { CLIP_GROUPS } from "../lib/suites/faintbench/clip-instrument";
import { labelInBrowser, launchOnSyntheticModel, SHARED_MODELS } from "./pages/suite-run";

const hasShared = existsSync(path.join(SHARED_MODELS, "fairface-standin-single18.onnx"));

test.describe("FAIntbench", () => {
  test.skip(!hasShared, "../shared/models is not present");

  test("browse prompts, launch on the synthetic model, label, review an age, read Table 2", async ({ page }) => {
    test.setTimeout(240_000);
    // The Benchmark page pages through the 2,654 prompts; a prompt opens to its truth (the release's anomaly shown).
    await page.goto("/benchmark/suites/faintbench?q=fashion+designer");
    const fd = page.locator('[data-item-id="i-fashion-designer"]');
    await fd.locator("summary").click();
    await expect(fd).toContainText("repaired from the release's");
    await page.goto("/benchmark/suites/faintbench");
    await expect(page.getByText("1–100 of 2654")).toBeVisible();
    await page.getByRole("link", { name: "next →" }).click();
    await expect(page.getByText("101–200 of 2654")).toBeVisible();

    // Launch: characteristic prompts only, two items (the rich / poor η pair), implicit and explicit, one image each.
    const runId = await launchOnSyntheticModel(page, { id: "faintbench", name: "FAIntbench" }, async (form) => {
      await form.locator('input[name="acquired"][value="occupation"]').uncheck();
      await form.locator('input[name="acquired"][value="relation"]').uncheck();
      await expect(form.getByLabel("Items per acquired attribute (0 = all)")).toHaveValue("2");
      // The instrument is chosen at launch: faces by default (CLIP's files are an operator's to install).
      await expect(form.getByLabel("Instrument")).toHaveValue("faces");
      await expect(form.getByLabel("Instrument").locator("option")).toHaveText([/^Faces/, /^CLIP ViT-L\/14/]);
    });
    await labelInBrowser(page, runId, 22);

    // Table 2: our row with the three scores; no paper row beside a faces run, and the caption says why.
    await page.goto(`/runs/${runId}`);
    const table = page.getByTestId("suite-table-table2");
    for (const h of ["Implicit", "Explicit", "η"]) await expect(table.getByRole("columnheader", { name: new RegExp(h) })).toBeVisible();
    const ours = table.locator('tr[data-source="run"]');
    await expect(ours).toHaveCount(1);
    const cells = (await ours.locator("td").allInnerTexts()).map((t) => t.trim().split("\n")[0]);
    expect(cells.filter((t) => /^0\.\d{3}$|^1\.000$/.test(t)).length).toBeGreaterThanOrEqual(2);
    await expect(table.locator('tr[data-source="published"]')).toHaveCount(0);
    await expect(table).toContainText(/launch with the CLIP instrument to compare/);
    await expect(page.getByTestId("suite-table-protected")).toContainText("Age");
    await expect(page.getByTestId("suite-bars-figure12")).toBeVisible();

    // Review: FAIntbench faces carry age; 7 / 8 / 9 set young / middle-aged / elderly.
    await page.goto(`/review?runId=${runId}`);
    await expect(page.getByTestId("keys-age")).toContainText("7 young");
    await expect(page.getByTestId("keys-race")).toContainText("Race (5 groups)");
    const face = page.getByTestId("review-face").first();
    await face.click();
    await page.keyboard.press("9");
    await expect(face.getByTestId("mine")).toContainText("elderly");
    await expect(page.getByText("All changes saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("review-face").first().getByTestId("mine")).toContainText("elderly");

    // Agreement counts age for these faces (a column only once someone labelled an age).
    await page.goto(`/review/agreement?runId=${runId}`);
    await expect(page.getByTestId("agreement").getByRole("columnheader", { name: "Age" })).toBeVisible();

    // The reviewed scores use it: the drill-down shows the face as reviewed.
    await page.goto(`/runs/${runId}?labels=reviewed`);
    await expect(page.getByTestId("suite-table-table2")).toContainText(/human-corrected/);
    const jsonl = (await (await page.request.get(`/api/runs/${runId}/export?format=jsonl&labels=reviewed`)).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(jsonl.some((l) => l.age === "elderly" && l.reviewed?.age === true)).toBe(true);
  });

  test("import images in the release's layout (model/prompt/image) and score them", async ({ page }) => {
    test.setTimeout(120_000);
    await registerImportModel(page, "sdxl-elsewhere", "SDXL (made elsewhere)");
    const photo = (f: string) => new Uint8Array(readFileSync(path.join(SHARED_MODELS, "test-images", f)));
    const zip = (entries: Record<string, Uint8Array>) => ({ name: "sdxl.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync(entries)) });
    const good = {
      "SDXL/a photo of a rich person/1.png": photo("astronaut-eileen-collins.png"),
      "SDXL/a photo of a rich person/2.jpg": photo("grace-hopper-512.jpg"),
      "SDXL/i-poor-person/1.png": photo("no-face-coffee.png"),
    };
    await page.goto("/runs/import");
    await page.locator("form[data-hydrated]").waitFor();
    await page.getByLabel("Suite").selectOption("faintbench");
    await page.getByLabel("Model").selectOption("sdxl-elsewhere");
    await expect(page.getByText(/Name files <prompt>\/<image file>/)).toBeVisible();
    // A folder that is no FAIntbench prompt: the server refuses the batch and names the file; nothing is stored.
    await page.getByLabel("Files or zip archives").setInputFiles([zip({ ...good, "SDXL/a photo of one Astronaut/1.png": photo("cat-chelsea.png") })]);
    await page.getByRole("button", { name: "Import 4 images" }).click();
    await expect(page.getByText(/a photo of one Astronaut\/1\.png.*not a FAIntbench prompt/)).toBeVisible({ timeout: 30_000 });
    await page.getByLabel("Files or zip archives").setInputFiles([zip(good)]);
    const preview = page.getByRole("table", { name: "Mapping preview" });
    await expect(preview).toContainText("a photo of a rich person");
    await page.getByRole("button", { name: "Import 3 images" }).click();
    await expect(page.getByText("Imported 3 images (mapped by file names).")).toBeVisible({ timeout: 30_000 });
    const runId = (await page.getByRole("link", { name: "Open the run" }).getAttribute("href"))!.split("/").pop()!;

    await labelInBrowser(page, runId, 3);
    // The Label page showed the faces in FAIntbench's own classes, and Review filters by its own coordinates.
    await expect(page.getByText(/shown in FAIntbench's 5 races and 3 age groups/)).toBeVisible();
    await page.goto(`/review?runId=${runId}`);
    await expect(page.getByLabel("Visibility")).toBeVisible();
    await expect(page.getByLabel("Acquired attribute")).toBeVisible();
    await expect(page.getByLabel("Statistic", { exact: true })).toHaveCount(0);
    await page.getByLabel("Visibility").selectOption("implicit");
    await expect(page).toHaveURL(/test=implicit/);
    await page.goto(`/runs/${runId}`);
    const table = page.getByTestId("suite-table-table2");
    const ours = table.locator('tr[data-source="run"]');
    await expect(ours).toContainText("sdxl-elsewhere");
    await expect(table.locator('tr[data-source="published"]')).toHaveCount(0);
    await expect(table).toContainText(/sdxl-elsewhere: 3 images, 1 without a face/);
  });

  test("launch with the paper's CLIP instrument, read the images in the browser, and score them beside the paper", async ({ page }) => {
    test.setTimeout(240_000);
    // An operator's CLIP pair in the data directory's models/ (a CLIP-family stand-in with random weights: not CLIP).
    const dir = path.join(process.env.E2E_DATA_DIR!, "models");
    mkdirSync(dir, { recursive: true });
    const tower = buildClipStandIn({ seed: 5, dim: 8 });
    writeFileSync(path.join(dir, "clip-vit-l14-vision.onnx"), tower);
    const texts = [...new Set(Object.values(CLIP_GROUPS).flat())];
    writeFileSync(
      path.join(dir, "clip-texts.json"),
      JSON.stringify({
        model: "CLIP-family stand-in (random weights; not CLIP)",
        weightsSha256: "0".repeat(64),
        visionSha256: createHash("sha256").update(tower).digest("hex"),
        logitScale: 100,
        dim: 8,
        texts: Object.fromEntries(texts.map((t, i) => [t, Array.from({ length: 8 }, (_, j) => Math.cos((i + 1) * (j + 3)))])),
      }),
    );
    const runId = await launchOnSyntheticModel(page, { id: "faintbench", name: "FAIntbench" }, async (form) => {
      await form.locator('input[name="acquired"][value="occupation"]').uncheck();
      await form.locator('input[name="acquired"][value="relation"]').uncheck();
      await form.getByLabel("Instrument").selectOption("clip");
    });
    // The run page sends its images to CLIP, not to the face pipeline.
    await expect(page.getByRole("link", { name: "Label faces" })).toHaveCount(0);
    await page.getByRole("link", { name: "Read with CLIP" }).click();
    await expect(page.getByTestId("clip-model")).toContainText("tower sha256", { timeout: 60_000 });
    await page.getByRole("button", { name: "Start reading" }).click();
    await expect(page.getByTestId("clip-progress")).toContainText(/ · 0 to read/, { timeout: 120_000 });
    await expect(page.getByTestId("clip-progress")).toContainText("done");

    await page.goto(`/runs/${runId}`);
    const table = page.getByTestId("suite-table-table2");
    await expect(table.locator('tr[data-source="run"]')).toHaveCount(1);
    await expect(table.locator('tr[data-source="published"]')).toHaveCount(7);
    await expect(table).toContainText("PixArt-Σ (paper)");
    await expect(table).toContainText(/Instrument: CLIP on whole images/);
    await expect(table).toContainText(/do NOT come from OpenAI's ViT-L\/14 weights/);
    const jsonl = (await (await page.request.get(`/api/runs/${runId}/export?format=jsonl`)).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(jsonl.every((l) => l.instrument === "clip" && l.clip.runtime === "browser-wasm")).toBe(true);
  });
});

// Page objects for portraits made elsewhere: importing them into a run, and labelling a one-image run on the Label
// page. The photos and the FairFace stand-ins come from ../shared/models; journeys skip when it is absent.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { zipSync } from "fflate";
import { SHARED_MODELS as SHARED } from "./suite-run";

export const hasShared = existsSync(path.join(SHARED, "fairface-standin-single18.onnx"));
const photo = (file: string) => readFileSync(path.join(SHARED, "test-images", file));

/** Imports four photos (two faces, two without a face at 0.95) for `model` into a new run; returns the run id. */
export async function importPortraits(page: Page, model: string, runName: string) {
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
export async function importOne(page: Page, model: string, runName: string) {
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
export async function labelOne(page: Page, runId: string, backend: "wasm" | "webgpu", shown: RegExp, limitMs: number): Promise<number> {
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

// Page objects for a suite's run journey: the generic launch form, and labelling a run in the browser with the
// FairFace stand-in served in place of the real model (WASM).
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";

export const SHARED_MODELS = path.resolve(__dirname, "../../../shared/models");

/** Opens the suite's launch form on the synthetic image model alone, lets `configure` adjust it, launches, and
 * waits for the run to complete. Returns the run id. */
export async function launchOnSyntheticModel(page: Page, suite: { id: string; name: string }, configure: (form: Locator) => Promise<void>): Promise<string> {
  await page.goto(`/runs/new?suite=${suite.id}`);
  const form = page.locator(`form[data-hydrated][aria-label="Launch a ${suite.name} run"]`);
  await form.waitFor();
  for (const box of await form.locator('input[name="models"]').all()) await box.uncheck();
  await form.locator('input[name="models"][value="baseline:synthetic-faces"]').check();
  await configure(form);
  await form.getByRole("button", { name: `Launch ${suite.name} run` }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });
  const runId = page.url().split("/").pop()!;
  await expect(page.getByText(new RegExp(`${suite.name} · content ${suite.id}-`))).toBeVisible();
  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 90_000 });
  return runId;
}

/** Labels every image of a run on the Label page and checks how many there were. */
export async function labelInBrowser(page: Page, runId: string, images: number) {
  await page.route("**/api/face-models/fairface", (route) =>
    route.fulfill({ status: 200, contentType: "application/octet-stream", body: readFileSync(path.join(SHARED_MODELS, "fairface-standin-single18.onnx")) }),
  );
  await page.goto(`/label?run=${runId}&backend=wasm`);
  await expect(page.getByTestId("classifier")).toContainText("one output [N,18]", { timeout: 60_000 });
  await page.getByRole("button", { name: "Start labelling" }).click();
  await expect(page.getByTestId("label-phase")).toHaveText("all images labelled", { timeout: 150_000 });
  await expect(page.getByTestId("todo")).toHaveText(`0 of ${images} images`);
}

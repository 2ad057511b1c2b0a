// Page objects for the Models page.
import { expect, type Page } from "@playwright/test";

/** Registers an import-only text-to-image model (images made elsewhere) through the Models page form. */
export async function registerImportModel(page: Page, slug: string, label: string) {
  await page.goto("/models");
  await page.locator("form[data-hydrated][data-testid=model-form]").waitFor();
  await page.getByLabel("Kind").selectOption("t2i");
  await page.getByLabel("Provider", { exact: true }).selectOption("import");
  await page.getByLabel("Id", { exact: true }).fill(slug);
  await page.getByLabel("Display name").fill(label);
  await page.getByRole("button", { name: "Save model" }).click();
  await expect(page.getByText(`Saved ${label}.`)).toBeVisible();
}

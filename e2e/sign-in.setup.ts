// Signs in as the admin the server made from FOF_ADMIN_EMAIL / FOF_ADMIN_PASSWORD and keeps the session for the
// journeys (playwright.config.ts: the "sign-in" project).
import { expect, test as setup } from "@playwright/test";
import { ADMIN_STATE, E2E_ADMIN } from "../playwright.config";

setup("sign in as the admin", async ({ page }) => {
  await page.goto("/runs");
  // Signed out: every page sends us to the sign-in page, and back afterwards.
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fruns/);
  await page.locator("form[data-hydrated][data-testid=sign-in-form]").waitFor();
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill("wrong-password-here");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByTestId("account")).toContainText(`${E2E_ADMIN.email} · admin`);
  await page.context().storageState({ path: ADMIN_STATE });
});

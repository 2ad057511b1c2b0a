// First run on a server with no account: every page leads to the setup page, which (from this machine) creates the
// first admin and signs them in; afterwards setup is closed and sign-in is the way in.
import { expect, test } from "@playwright/test";

test("the first visit creates the first admin, then setup is closed", async ({ page }) => {
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
  await page.locator("form[data-hydrated][data-testid=setup-form]").waitFor();
  await page.getByLabel("Your name").fill("First Admin");
  await page.getByLabel("Email").fill("first@e2e.example.org");
  await page.getByLabel(/^Password/).fill("short");
  await page.getByRole("button", { name: "Create admin and sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "at least 10 characters" })).toBeVisible();
  await page.getByLabel(/^Password/).fill("first-admin-password");
  await page.getByRole("button", { name: "Create admin and sign in" }).click();
  await expect(page.getByTestId("account")).toContainText("first@e2e.example.org · admin");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" })).toBeVisible();

  // Setup is closed now: it sends everyone to sign in.
  const fresh = await page.context().browser()!.newContext({ baseURL: new URL(page.url()).origin });
  const other = await fresh.newPage();
  await other.goto("/setup");
  await expect(other).toHaveURL(/\/sign-in$/);
  await fresh.close();
});

// Page objects for accounts: an admin's one-time invitation link, and someone joining with it in a browser of their own.
import { expect, type Browser, type Page } from "@playwright/test";

/** The admin (page) makes an invitation link for a role on the Users page; returns its path. */
export async function invite(page: Page, role: string): Promise<string> {
  await page.goto("/users");
  await page.locator("form[data-hydrated][data-testid=invite-form]").waitFor();
  await page.getByTestId("invite-form").getByRole("combobox").selectOption(role);
  await page.getByRole("button", { name: "Make invitation link" }).click();
  const link = await page.getByTestId("one-time-link").inputValue();
  expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{43}$/);
  return new URL(link).pathname;
}

/** Someone opens an invitation in a browser of their own (no session) and makes their account; returns their page. */
export async function join(
  browser: Browser,
  baseURL: string | undefined,
  path: string,
  who: { name: string; email: string; password: string; role: string },
): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const p = await context.newPage();
  await p.goto(path);
  await expect(p.getByText(`You are invited as ${who.role[0].toUpperCase()}${who.role.slice(1)}`)).toBeVisible();
  await p.locator("form[data-hydrated][data-testid=join-form]").waitFor();
  await p.getByLabel("Your name").fill(who.name);
  await p.getByLabel("Email").fill(who.email);
  await p.getByLabel(/^Password/).fill(who.password);
  await p.getByRole("button", { name: "Create account" }).click();
  await expect(p.getByTestId("account")).toContainText(`${who.email} · ${who.role}`);
  return p;
}

// Teams: an admin invites an annotator with a one-time link; the annotator makes an account, sees Label and Review
// but no launch control, and is refused (403) by what their role may not do; the activity log shows both of them.
import { expect, test } from "@playwright/test";

test("an admin invites an annotator, who can label and review but not launch, and the activity log records it", async ({ page, browser, baseURL }) => {
  await page.goto("/users");
  await page.locator("form[data-hydrated][data-testid=invite-form]").waitFor();
  await page.getByTestId("invite-form").getByRole("combobox").selectOption("annotator");
  await page.getByRole("button", { name: "Make invitation link" }).click();
  const link = await page.getByTestId("one-time-link").inputValue();
  expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{43}$/);

  // The annotator, in a browser of their own (no session).
  const other = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const ann = await other.newPage();
  await ann.goto(new URL(link).pathname);
  await expect(ann.getByText("You are invited as Annotator")).toBeVisible();
  await ann.locator("form[data-hydrated][data-testid=join-form]").waitFor();
  await ann.getByLabel("Your name").fill("Ann Notator");
  await ann.getByLabel("Email").fill("ann@e2e.example.org");
  await ann.getByLabel(/^Password/).fill("annotator-password");
  await ann.getByRole("button", { name: "Create account" }).click();
  await expect(ann.getByTestId("account")).toContainText("ann@e2e.example.org · annotator");
  const nav = ann.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Label" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Review" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Runs" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Models" })).toHaveCount(0);

  // No launch control, and the server refuses what the role may not do.
  await ann.goto("/runs/new");
  await expect(ann.getByText("This page is not for your role")).toBeVisible();
  const importAttempt = await ann.request.post("/api/imports", { data: { model: "anything" } });
  expect(importAttempt.status()).toBe(403);
  expect((await importAttempt.json()).error).toMatch(/your role \(annotator\) may not import images/);
  expect((await ann.request.get("/api/runs/any/queries")).status()).toBe(403);
  // The link worked once.
  await ann.goto(new URL(link).pathname);
  await expect(ann.getByText("This link is not valid")).toBeVisible();
  await other.close();

  // Anonymous callers get 401 from the API.
  const anon = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  expect((await anon.request.get("/api/runs/any")).status()).toBe(401);
  await anon.close();

  await page.goto("/users/activity");
  const log = page.getByTestId("activity");
  await expect(log).toContainText("user.invite");
  await expect(log).toContainText("user.join");
  await expect(log.getByRole("row").filter({ hasText: "user.join" })).toContainText("ann@e2e.example.org");
});

test("a runner launches within the spending limit an admin set, and a budget over it is refused", async ({ page, browser, baseURL }) => {
  // The admin invites a runner.
  await page.goto("/users");
  await page.locator("form[data-hydrated][data-testid=invite-form]").waitFor();
  await page.getByTestId("invite-form").getByRole("combobox").selectOption("runner");
  await page.getByRole("button", { name: "Make invitation link" }).click();
  const link = await page.getByTestId("one-time-link").inputValue();

  const other = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const runner = await other.newPage();
  await runner.goto(new URL(link).pathname);
  await runner.locator("form[data-hydrated][data-testid=join-form]").waitFor();
  await runner.getByLabel("Your name").fill("Rita Runner");
  await runner.getByLabel("Email").fill("rita@e2e.example.org");
  await runner.getByLabel(/^Password/).fill("runner-password");
  await runner.getByRole("button", { name: "Create account" }).click();
  await expect(runner.getByTestId("account")).toContainText("rita@e2e.example.org · runner");

  // The admin gives her a $1 limit.
  await page.reload();
  const row = page.getByTestId("users").getByRole("row").filter({ hasText: "rita@e2e.example.org" });
  await row.getByLabel("Spending limit (USD)").fill("1");
  await row.getByRole("button", { name: "Set limit" }).click();
  await expect(row).toContainText("$1.00");

  await runner.goto("/runs/new");
  await expect(runner.getByTestId("spending-limit")).toContainText("$1.00 is left");
  await runner.locator("form[data-hydrated]").waitFor();
  for (const box of await runner.locator('input[name="models"]:checked').all()) await box.uncheck();
  await runner.locator('input[name="models"][value="baseline:uniform"]').check();
  await runner.getByLabel("Preset").selectOption("smoke");
  await runner.getByLabel("Budget (USD, optional)").fill("5");
  await runner.getByRole("button", { name: "Launch run" }).click();
  await expect(runner.getByRole("alert").filter({ hasText: "over what your spending limit leaves ($1.00 of $1.00)" })).toBeVisible();
  // Without a budget the run gets what is left, so the engine's budget stop keeps it inside the limit.
  await runner.getByLabel("Budget (USD, optional)").fill("");
  await runner.getByRole("button", { name: "Launch run" }).click();
  await expect(runner).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });
  await expect(runner.getByText("of $1.00")).toBeVisible();
  await other.close();

  await page.goto("/users/activity?action=run.launch");
  await expect(page.getByTestId("activity")).toContainText("rita@e2e.example.org");
});

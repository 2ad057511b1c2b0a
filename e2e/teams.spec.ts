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

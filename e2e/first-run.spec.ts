// First run on a server with no account: every page leads to the setup page, which (from this machine) creates the
// first admin and signs them in; afterwards setup is closed and sign-in is the way in.
import { networkInterfaces } from "node:os";
import { expect, test } from "@playwright/test";

/** This machine's own network address (not loopback), so a request arrives as a remote client's would. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === "IPv4")?.address;
const forged = { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", forwarded: "for=127.0.0.1", host: "127.0.0.1" };

test("a remote client cannot pass for this machine with forged headers", async ({ page, request, baseURL }) => {
  // An unreadable path is a 400 from the server, not a 500 from a page.
  expect((await request.get("/runs/%ff")).status()).toBe(400);
  // From loopback, but claiming to be forwarded: a proxy nobody configured, or a forgery — not local either.
  const viaHeaders = await request.get("/setup", { headers: forged });
  expect(await viaHeaders.text()).toContain("Open this page on the server itself");
  test.skip(!external, "this machine has no non-loopback IPv4 address to reach the server from");
  const port = new URL(baseURL!).port;
  const remote = await request.get(`http://${external}:${port}/setup`, { headers: { ...forged, host: `127.0.0.1:${port}` } });
  expect(remote.status()).toBe(200);
  const html = await remote.text();
  expect(html).toContain("Open this page on the server itself");
  expect(html).not.toContain('data-testid="setup-form"');
  // The setup action refuses too (no token): posting the form from the remote address creates no admin.
  await page.goto(`http://${external}:${port}/setup`);
  await expect(page.getByRole("alert").filter({ hasText: "Open this page on the server itself" })).toBeVisible();
});

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
  const fresh = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  const other = await fresh.newPage();
  await other.goto("/setup");
  await expect(other).toHaveURL(/\/sign-in$/);
  await fresh.close();

  // Rotating X-Forwarded-For buys no extra guesses: the server counts the socket's address (5 a minute per client).
  const codes: number[] = [];
  for (let i = 0; i < 7; i++) {
    const r = await page.request.post("/api/auth/sign-in/email", {
      headers: { "x-forwarded-for": `203.0.113.${i + 1}`, origin: new URL(page.url()).origin },
      data: { email: "first@e2e.example.org", password: `wrong-password-${i}` },
    });
    codes.push(r.status());
  }
  expect(codes.slice(0, 5).every((c) => c === 401)).toBe(true);
  expect(codes.slice(5)).toEqual([429, 429]);
});

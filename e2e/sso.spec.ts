// Single sign-on in a real browser against a real OpenID Connect provider on loopback (oidc-provider, started by
// playwright.config.ts; its people's groups set here): a person of an allowed domain signs in and lands with the role
// their groups map to; removed from the group, the next sign-in lowers it; another domain is refused with words of
// ours; an admin's disabling holds whatever the provider says; the server's exported spans hold no URL-borne secret.
import { expect, test, type Page } from "@playwright/test";
import { E2E_ADMIN, oidcPort, otlpPort } from "../playwright.config";
import { crawlAs } from "./pages/crawl";

async function setPerson(email: string, groups: string[]) {
  const res = await fetch(`http://127.0.0.1:${oidcPort}/__test/people/${encodeURIComponent(email)}`, {
    method: "PUT",
    body: JSON.stringify({ name: email.split("@")[0], groups }),
  });
  expect(res.status).toBe(204);
}

/** From the sign-in page through the provider's login form (skipped when the provider remembers the person). */
async function signOn(page: Page, email: string) {
  await page.goto("/sign-in");
  await page.locator("[data-testid=sso][data-hydrated]").waitFor();
  await page.getByRole("button", { name: "Sign in with Example SSO" }).click();
  // At the provider's login form, or already back (the provider remembered the person): signed in, or refused.
  await page.waitForURL((u) => u.port === String(oidcPort) || u.searchParams.has("error") || u.pathname !== "/sign-in");
  if (new URL(page.url()).port === String(oidcPort)) {
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill("anything");
    await page.getByRole("button", { name: "Sign-in" }).click();
  }
  await page.waitForURL((u) => u.port !== String(oidcPort) && !u.pathname.startsWith("/api/auth"));
}

/** The Account page names the person and their role ("ana · ana@example.org · Runner — …"). */
async function expectRole(page: Page, email: string, label: string) {
  await page.goto("/account");
  await expect(page.getByText(`${email} · ${label} —`)).toBeVisible();
}

test("a person signs in through the provider with their groups' role, which follows the groups", async ({ page }) => {
  await setPerson("ana@example.org", ["fof-runners"]);
  await signOn(page, "ana@example.org");
  await expect(page).not.toHaveURL(/sign-in/);
  await expectRole(page, "ana@example.org", "Runner");
  // This server has no runs: a runner's empty states offer only what a runner may follow.
  const asRunner = await crawlAs(page, ["/", "/runs", "/runs/import", "/results", "/account"], { maxPages: 40 });
  expect(asRunner.visited).toContain("/runs/import");
  expect(asRunner.refused).toEqual([]);
  // Removed from the runners at the provider: the next sign-in lowers the role.
  await setPerson("ana@example.org", ["fof-viewers"]);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/sign-in/);
  await signOn(page, "ana@example.org");
  await expectRole(page, "ana@example.org", "Viewer");
  // This server has no runs at all: every empty state a viewer meets offers only what a viewer may follow (a "Launch
  // one" link there once led a viewer to a 403).
  const crawl = await crawlAs(page, ["/", "/runs", "/results", "/benchmark", "/account"], { maxPages: 40 });
  expect(crawl.visited.length).toBeGreaterThan(8);
  expect(crawl.refused).toEqual([]);
});

test("a person of another domain is refused with the reason", async ({ page }) => {
  await setPerson("mallory@elsewhere.example", ["fof-runners"]);
  await signOn(page, "mallory@elsewhere.example");
  await expect(page).toHaveURL(/\/sign-in\?.*error=sso_domain_refused/);
  await expect(page.getByTestId("sso-error")).toHaveText(/domain may not sign in here/);
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("an account an admin disabled stays disabled whatever the provider says", async ({ page, browser }) => {
  await setPerson("ben@example.org", ["fof-runners"]);
  await signOn(page, "ben@example.org");
  await expect(page).not.toHaveURL(/sign-in/);
  // The admin signs in with their password (still offered beside single sign-on) and disables Ben.
  const admin = await (await browser.newContext()).newPage();
  await admin.goto("/sign-in");
  await admin.locator("form[data-hydrated][data-testid=sign-in-form]").waitFor();
  await admin.getByLabel("Email").fill(E2E_ADMIN.email);
  await admin.getByLabel("Password").fill(E2E_ADMIN.password);
  await admin.getByRole("button", { name: "Sign in", exact: true }).click();
  await admin.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
  await admin.goto("/users");
  await admin.getByRole("row").filter({ hasText: "ben@example.org" }).getByRole("button", { name: "Disable" }).click();
  await admin.getByRole("button", { name: "Disable account" }).click();
  await expect(admin.getByRole("row").filter({ hasText: "ben@example.org" }).getByRole("button", { name: "Enable" })).toBeVisible();
  // Ben's session ended; signing on again is refused although the provider still vouches for him.
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/sign-in/);
  await signOn(page, "ben@example.org");
  await expect(page.getByTestId("sso-error")).toHaveText(/This account is disabled/);
});

test("a callback with a forged state is refused in the browser, started here or not", async ({ page }) => {
  // A login CSRF: the attacker's own code and a state this browser never started.
  await page.goto("/api/auth/callback/oidc?code=attacker-code&state=forged-state-value");
  await expect(page).toHaveURL(/\/sign-in\?.*error=state_/);
  await expect(page.getByTestId("sso-error")).toHaveText(/could not be verified/);
  // A sign-on started in this browser, answered with another state.
  await page.getByRole("button", { name: "Sign in with Example SSO" }).click();
  await page.waitForURL((u) => u.port === String(oidcPort));
  await page.goto("/api/auth/callback/oidc?code=attacker-code&state=another-state-value");
  await expect(page.getByTestId("sso-error")).toHaveText(/could not be verified/);
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("spans this server exports carry no secret from a URL: a join link's token, the setup token, the provider's code and state", async ({ page }) => {
  const invite = `canary-invite-${Math.random().toString(36).slice(2)}`;
  const setup = `canary-setup-${Math.random().toString(36).slice(2)}`;
  // What a person's browser asks for: an invitation link, the setup link (both refused here, yet requested with the
  // secret in the URL), and a whole single sign-on, whose callback carries the provider's code and state.
  await page.goto(`/join/${invite}`);
  await page.goto(`/setup?token=${setup}`);
  const callbacks: URL[] = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname === "/api/auth/callback/oidc") callbacks.push(u);
  });
  await setPerson("tracy@example.org", ["fof-runners"]);
  await signOn(page, "tracy@example.org");
  await expect(page).not.toHaveURL(/sign-in/);
  const secrets = [invite, setup, ...callbacks.flatMap((u) => [u.searchParams.get("code")!, u.searchParams.get("state")!])];
  expect(callbacks.length).toBeGreaterThan(0);
  expect(secrets.every((s) => s && s.length >= 8)).toBe(true);
  // Spans leave in batches (every 5 s): wait until the join request's own span has arrived, redacted.
  let bodies: string[] = [];
  await expect
    .poll(
      async () => {
        bodies = (await (await fetch(`http://127.0.0.1:${otlpPort}/__bodies`)).json()) as string[];
        const all = bodies.join("\n");
        return all.includes("/join/[redacted]") && all.includes("/api/auth/callback/oidc?") && all.includes("token=[redacted]");
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const all = bodies.join("\n");
  for (const secret of secrets) {
    expect(all, "a URL secret in an exported span").not.toContain(secret);
    expect(all).not.toContain(encodeURIComponent(secret));
  }
});

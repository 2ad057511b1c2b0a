// The platform for CI: an admin makes a personal access token on the Account page, the token reads /api/v1 and
// launches a run, the admin revokes it (confirmed in a dialog) and it is refused; a webhook registered on the Webhooks
// page receives the run's end, signed, and the delivery log shows the receiver's answer.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";

test("a token from the Account page drives /api/v1 until revoked; a webhook is told when the run ends", async ({ page, request, baseURL }) => {
  // The receiver: a local server that records what it is sent (loopback is allowed for the e2e server).
  const got: Array<{ event: string; signature: string; body: string }> = [];
  const receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    got.push({ event: String(req.headers["x-fof-event"]), signature: String(req.headers["x-fof-signature"]), body: Buffer.concat(chunks).toString() });
    res.writeHead(204).end();
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/fof`;

  await page.goto("/webhooks");
  await page.locator("form[data-hydrated][data-testid=webhook-form]").waitFor();
  await page.getByLabel("URL").fill(hookUrl);
  await page.getByRole("button", { name: "Register webhook" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveValue(/^whsec_/);
  await expect(page.getByRole("table", { name: "Webhooks" })).toContainText(hookUrl);

  await page.getByTestId("account").getByRole("link", { name: "Account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.locator("form[data-hydrated][data-testid=token-form]").waitFor();
  await page.getByLabel("Name").fill("e2e-ci");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByTestId("new-token").inputValue();
  expect(token).toMatch(/^fof_/);
  await expect(page.getByTestId("token-row").filter({ hasText: "e2e-ci" })).toContainText("live");
  // The least role a CI job needs (runner) unless chosen otherwise, and a Copy button beside the secret.
  await expect(page.getByTestId("token-row").filter({ hasText: "e2e-ci" })).toContainText("runner");
  await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();

  // The token, with no cookie, as a CI job holds it.
  const api = (path: string, init: { method?: string; data?: unknown } = {}) =>
    request.fetch(`${baseURL}${path}`, { method: init.method ?? "GET", data: init.data, headers: { authorization: `Bearer ${token}`, cookie: "" } });
  expect((await api("/api/v1/runs")).status()).toBe(200);
  const launched = await api("/api/v1/runs", {
    method: "POST",
    data: { suite: "fact-or-fair", models: ["baseline:oracle"], preset: "smoke", config: { tests: ["objective"] }, seed: 7, name: "launched by a token" },
  });
  expect(launched.status()).toBe(202); // answered at once, planned in the background
  const { run } = await launched.json();
  expect(run.status).toBe("planning");
  await expect.poll(async () => (await (await api(`/api/v1/runs/${run.id}`)).json()).status, { timeout: 60_000 }).toBe("completed");
  await expect.poll(() => got.find((g) => g.event === "run.completed" && g.body.includes(run.id)), { timeout: 30_000 }).toBeTruthy();
  expect(got[0].signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  // The launch was announced first, with the design signed before any provider call.
  const announced = got.find((g) => g.event === "run.launched" && g.body.includes(run.id));
  expect(JSON.parse(announced!.body).design.payloadType).toBe("application/vnd.in-toto+json");
  await page.goto("/webhooks");
  // The log names the run (and links it): its launch and its end, each delivered.
  const completed = page.getByTestId("delivery").filter({ hasText: "launched by a token" }).filter({ hasText: "run.completed" });
  await expect(completed).toContainText("delivered");
  await expect(completed.getByRole("link", { name: "launched by a token" })).toHaveAttribute("href", `/runs/${run.id}`);
  await expect(completed).toContainText("204");
  await expect(page.getByTestId("delivery").filter({ hasText: "launched by a token" }).filter({ hasText: "run.launched" })).toContainText("delivered");

  // Revoked on the Account page (a dialog asks first): the token is refused from then on.
  await page.goto("/account");
  await page.getByRole("button", { name: "Revoke e2e-ci" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke “e2e-ci”?" });
  await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
  await dialog.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByTestId("token-row").filter({ hasText: "e2e-ci" })).toContainText("revoked");
  const refused = await api("/api/v1/runs");
  expect(refused.status()).toBe(401);
  expect((await refused.json()).code).toBe("unauthenticated");
  receiver.close();
});

test("every page sends a Content-Security-Policy with a fresh nonce on its scripts, and the pages run under it", async ({ page }) => {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __csp?: string[] }).__csp ??= [];
      (window as unknown as { __csp: string[] }).__csp.push(`${location.pathname}: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const nonces = new Set<string>();
  for (const path of ["/", "/runs", "/runs/new", "/results", "/benchmark", "/label", "/review", "/verify", "/account", "/users"]) {
    const res = await page.goto(path);
    const policy = res!.headers()["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce, `${path} sends a policy with a nonce`).toBeTruthy();
    expect(policy).toContain("'strict-dynamic'");
    expect(policy).not.toContain("'unsafe-eval'");
    nonces.add(nonce!);
    // Next.js put the nonce on every script of the page as served (inline and external); what those load later is
    // trusted through them ('strict-dynamic').
    const tags = (await res!.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.filter((t) => !t.includes(`nonce="${nonce}"`))).toEqual([]);
    await page.waitForLoadState("networkidle");
    violations.push(...((await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])) as string[]));
  }
  expect(nonces.size).toBe(10);
  expect(violations).toEqual([]);
  // A prefetch is a page too: it gets its policy. What is not a page (the API, including an error page rendered
  // there) gets one under which nothing runs.
  const prefetched = await page.request.get("/sign-in", { headers: { purpose: "prefetch", "next-router-prefetch": "1" } });
  expect(prefetched.headers()["content-security-policy"]).toMatch(/'nonce-[^']+'/);
  for (const path of ["/api/v1/no-such-route", "/api/health", "/.well-known/fof-evidence-key", "/metrics"])
    expect((await page.request.get(path)).headers()["content-security-policy"], path).toMatch(/^default-src 'none'/);
  // The worker scripts' folders (an error page there too) run no inline script and cannot be framed.
  for (const path of ["/ort/no-such-file", "/verifier/no-such-file"])
    expect((await page.request.get(path)).headers()["content-security-policy"], path).toMatch(
      /^default-src 'self'; script-src 'self' 'wasm-unsafe-eval';.*frame-ancestors 'none'/,
    );
});

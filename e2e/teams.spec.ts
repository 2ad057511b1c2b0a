// Teams: an admin invites an annotator with a one-time link; the annotator makes an account, sees Label and Review
// but no launch control, and is refused (403) by what their role may not do; the activity log shows both of them.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { crawlAs } from "./pages/crawl";
import { invite, join } from "./pages/accounts";

test("an admin invites an annotator, who can label and review but not launch, and the activity log records it", async ({ page, browser, baseURL }) => {
  const link = await invite(page, "annotator");
  // The annotator, in a browser of their own (no session).
  const ann = await join(browser, baseURL, link, { name: "Ann Notator", email: "ann@e2e.example.org", password: "annotator-password", role: "annotator" });
  const nav = ann.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Label" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Review" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Runs" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Models" })).toHaveCount(0);

  // No launch control, and the server refuses what the role may not do.
  const refusedPage = await ann.goto("/runs/new");
  expect(refusedPage!.status()).toBe(403); // a refused page says so in its status, not only in its text
  await expect(ann.getByText("This page is not for your role")).toBeVisible();
  const importAttempt = await ann.request.post("/api/imports", { data: { model: "anything" } });
  expect(importAttempt.status()).toBe(403);
  expect((await importAttempt.json()).error).toMatch(/your role \(annotator\) may not import images/);
  expect((await ann.request.get("/api/runs/any/queries")).status()).toBe(403);
  // The link worked once.
  await ann.goto(link);
  await expect(ann.getByText("This link is not valid")).toBeVisible();
  await ann.context().close();

  // Anonymous callers get 401 from the API.
  const anon = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  expect((await anon.request.get("/api/runs/any")).status()).toBe(401);
  await anon.close();

  await page.goto("/users/activity");
  const log = page.getByTestId("activity");
  await expect(log).toContainText("user.invite");
  await expect(log).toContainText("user.join");
  // other journeys' joins share the log: the annotator's own row names her
  await expect(log.getByRole("row").filter({ hasText: "user.join" }).filter({ hasText: "ann@e2e.example.org" })).toHaveCount(1);
});

test("a runner launches within the spending limit an admin set, and a budget over it is refused", async ({ page, browser, baseURL }) => {
  // The admin invites a runner.
  const runner = await join(browser, baseURL, await invite(page, "runner"), {
    name: "Rita Runner",
    email: "rita@e2e.example.org",
    password: "runner-password",
    role: "runner",
  });

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
  await runner.context().close();

  await page.goto("/users/activity?action=run.launch");
  await expect(page.getByTestId("activity")).toContainText("rita@e2e.example.org");
});

test("two annotators in two browsers label the same faces: agreement shows them by account, and neither can label as the other", async ({
  page,
  browser,
  baseURL,
}) => {
  const shared = path.resolve(__dirname, "../../shared/models/test-images");
  test.skip(!existsSync(shared), "../shared/models is not present");
  // A retry makes accounts and a model of its own: the first attempt's exist already.
  const tag = test.info().retry ? `-retry${test.info().retry}` : "";
  const email = (who: string) => `${who}${tag}@e2e.example.org`;
  // A run with two labelled faces, set up as the admin through the API the pages use.
  await page.goto("/models");
  await page.locator("form[data-hydrated][data-testid=model-form]").waitFor();
  await page.getByLabel("Kind").selectOption("t2i");
  await page.getByLabel("Provider", { exact: true }).selectOption("import");
  await page.getByLabel("Id", { exact: true }).fill(`agree-e2e${tag}`);
  await page.getByLabel("Display name").fill("Agreement model (e2e)");
  await page.getByRole("button", { name: "Save model" }).click();
  await expect(page.getByText("Saved Agreement model (e2e).")).toBeVisible();
  const { uploadId } = await (await page.request.post("/api/imports", { data: { model: `agree-e2e${tag}`, runName: "Agreement journey" } })).json();
  for (const [name, file] of [
    ["objective__hiv-rate__highest__1.png", "astronaut-eileen-collins.png"],
    ["objective__hiv-rate__highest__2.jpg", "grace-hopper-512.jpg"],
  ])
    expect(
      (
        await page.request.put(`/api/imports/${uploadId}/files?name=${name}`, {
          headers: { "content-type": "application/octet-stream" },
          data: readFileSync(path.join(shared, file)),
        })
      ).status(),
    ).toBe(200);
  const { runId } = await (await page.request.post(`/api/imports/${uploadId}/commit`, { data: {} })).json();
  const { lease, images } = await (await page.request.post("/api/label/lease", { data: { runId, max: 8 } })).json();
  const probs = { race: [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01], gender: [0.9, 0.1], age: Array(9).fill(1 / 9) };
  const saved = await page.request.post("/api/label/results", {
    data: {
      lease,
      classifier: { model: "fairface", sha256: "f".repeat(64) },
      detector: { model: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", threshold: 0.95 },
      runtime: "browser-wasm",
      results: images.map((i: { id: string }) => ({ imageId: i.id, faces: [{ x1: 10, y1: 10, x2: 200, y2: 200, score: 0.99, ...probs }] })),
    },
  });
  expect((await saved.json()).saved).toBe(2);

  // Two annotators, each in a browser of their own.
  const people: Array<{ page: Page; email: string; id: string }> = [];
  for (const who of ["ada", "bo"]) {
    const p = await join(browser, baseURL, await invite(page, "annotator"), {
      name: who === "ada" ? "Ada" : "Bo",
      email: email(who),
      password: `${who}-password-123`,
      role: "annotator",
    });
    const faces = (await (await p.request.get(`/api/review/faces?runId=${runId}`)).json()).faces as Array<{ id: number }>;
    expect(faces).toHaveLength(2);
    people.push({ page: p, email: email(who), id: "" });
  }
  // Ada accepts both faces (male, White); Bo says male, Black — in their own browsers, with the keyboard.
  for (const [i, key] of [
    [0, "a"],
    [1, "2"],
  ] as const) {
    const p = people[i].page;
    await p.goto(`/review?runId=${runId}`);
    await expect(p.getByTestId("review-face")).toHaveCount(2);
    await p.getByRole("grid", { name: "Faces to review" }).focus();
    for (let f = 0; f < 2; f++) {
      if (key === "2") {
        await p.keyboard.press("m");
        await p.keyboard.press("2");
        await p.keyboard.press("ArrowRight");
      } else await p.keyboard.press("a");
    }
    // Saves are asynchronous: wait until the server holds both of this annotator's labels.
    const race = key === "a" ? "White" : "Black";
    await expect
      .poll(async () =>
        ((await (await p.request.get(`/api/review/faces?runId=${runId}`)).json()).faces as Array<{ mine: { race: string | null } | null }>).map(
          (f) => f.mine?.race ?? null,
        ),
      )
      .toEqual([race, race]);
  }
  // Bo tries to label as Ada: the server stores it as Bo's own label, whatever the body says.
  const adaFaces = (await (await people[0].page.request.get(`/api/review/faces?runId=${runId}`)).json()).faces as Array<{
    id: number;
    labels: Array<{ annotator: string; name: string }>;
  }>;
  const adaId = adaFaces[0].labels.find((l) => l.name.startsWith("Ada"))!.annotator;
  const forged = await people[1].page.request.post("/api/review/annotations", {
    data: { annotator: adaId, labels: [{ faceId: adaFaces[0].id, gender: "female", race: "Asian", notAFace: false }] },
  });
  expect(forged.status()).toBe(200);
  const after = (await (await people[0].page.request.get(`/api/review/faces?runId=${runId}`)).json()).faces as Array<{
    id: number;
    labels: Array<{ annotator: string; race: string | null }>;
  }>;
  expect(after[0].labels.find((l) => l.annotator === adaId)!.race).toBe("White");

  // The admin sees both accounts in the agreement, by name and email.
  await page.goto(`/review/agreement?runId=${runId}`);
  const ada = `Ada (${email("ada")})`;
  const bo = `Bo (${email("bo")})`;
  await expect(page.getByTestId("annotator-progress")).toContainText(ada);
  await expect(page.getByTestId("annotator-progress")).toContainText(bo);
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(page.getByTestId("agreement")).toContainText(new RegExp(`${esc(ada)} · ${esc(bo)}|${esc(bo)} · ${esc(ada)}`));
  // Race: Ada said White on both, Bo Black on both (and Asian on the face he tried to label as Ada) — no agreement.
  await expect(page.getByTestId("agreement")).toContainText("Cohen · 2 faces · 0 % agree");
  // Every label save is in the activity log under its account.
  await page.goto("/users/activity?action=face.label");
  await expect(page.getByTestId("activity")).toContainText(email("ada"));
  await expect(page.getByTestId("activity")).toContainText(email("bo"));
  for (const p of people) await p.page.context().close();
});

test("a viewer reads runs, results and exports without meeting a single 403", async ({ page, browser, baseURL }) => {
  const link = await invite(page, "viewer");
  const viewer = await join(browser, baseURL, link, {
    name: "Vi Ewer",
    email: `viewer-${Date.now()}@e2e.example.org`,
    password: "viewer-password",
    role: "viewer",
  });
  const refused: string[] = [];
  viewer.on("response", (r) => {
    if (r.status() === 403) refused.push(r.url());
  });
  // Every link on every page a viewer reaches from the home page, Runs and Results (each run page and its tabs).
  const crawl = await crawlAs(viewer, ["/", "/runs", "/results", "/benchmark", "/account"], { maxPages: 90 });
  expect(crawl.visited.length).toBeGreaterThan(20);
  expect(crawl.refused).toEqual([]);
  // A text-to-image run page offers a viewer neither labelling, nor review, nor importing; no raw output either.
  await viewer.goto("/runs");
  for (const href of (await viewer.locator("table a[href^='/runs/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")))).slice(0, 8)) {
    await viewer.goto(href!);
    await expect(viewer.getByRole("navigation", { name: "Run pages" }).getByRole("link", { name: "Items" })).toHaveCount(0);
    await expect(viewer.getByText(/Download JSONL/)).toHaveCount(0);
    for (const name of ["Label faces", "Review faces", "Import more", "Read with CLIP"]) await expect(viewer.getByRole("link", { name })).toHaveCount(0);
  }
  // Clickable chart parts too: a breakdown's bar segments open nothing a viewer may not read.
  const breakdown = crawl.visited.find((v) => /\/runs\/[^/]+\/breakdown/.test(v));
  if (breakdown) {
    await viewer.goto(breakdown);
    const segment = viewer.locator("[data-testid=breakdown-chart] .recharts-rectangle").first();
    if (await segment.count()) {
      await segment.click({ force: true });
      await viewer.waitForLoadState("networkidle");
      expect(new URL(viewer.url()).pathname).not.toMatch(/\/answers/);
    }
  }
  expect(refused).toEqual([]);
  await viewer.context().close();
});

test("an annotator meets no page that is not for their role, following every link they are offered", async ({ page, browser, baseURL }) => {
  const link = await invite(page, "annotator");
  const annotator = await join(browser, baseURL, link, {
    name: "An Notator",
    email: `crawl-annotator-${Date.now()}@e2e.example.org`,
    password: "annotator-password",
    role: "annotator",
  });
  const crawl = await crawlAs(annotator, ["/", "/review", "/benchmark", "/account"], { maxPages: 60 });
  expect(crawl.visited.length).toBeGreaterThan(5);
  expect(crawl.refused).toEqual([]);
  await annotator.context().close();
});

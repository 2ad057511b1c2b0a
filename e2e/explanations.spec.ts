// Why models choose whom (issue #67), the newcomer's journey in the browser: launch a chain-of-thought run on two
// models, draw a review sample of their explanations, two reviewers tag them with the keyboard (select the words, press
// the error's key), run the built-in judge, and read per-statistic error rates with intervals and the explanations
// behind a number — then the same numbers through the API.
import { expect, test, type Page } from "@playwright/test";
import { invite, join } from "./pages/accounts";
import { plantedIn } from "../lib/providers/explainer";

const KEYS: Record<string, string> = { representativeness: "1", attribution: "2", group: "3", stereotype: "4" };

/** Selects characters [start, end) of the explanation shown (as a reviewer would with the mouse). */
async function select(page: Page, start: number, end: number) {
  await page.getByTestId("explanation").evaluate(
    (root, [s, e]) => {
      const range = document.createRange();
      let at = 0;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const len = node.textContent!.length;
        if (at <= s && s <= at + len) range.setStart(node, s - at);
        if (at <= e && e <= at + len) {
          range.setEnd(node, e - at);
          break;
        }
        at += len;
      }
      const sel = window.getSelection()!;
      sel.removeAllRanges();
      sel.addRange(range);
    },
    [start, end] as const,
  );
}

/** Reads `count` explanations of the queue with the keyboard: each planted error selected and tagged, then Enter. */
async function review(page: Page, assignment: string, count: number) {
  await page.goto(`/review/explanations?assignmentId=${assignment}`);
  for (let i = 0; i < count; i++) {
    const item = page.getByTestId("explanation-item");
    await expect(item).toBeVisible();
    const id = await item.getAttribute("data-outcome");
    const text = (await page.getByTestId("explanation").textContent())!;
    const planted = plantedIn(text);
    if (!planted.length) await page.keyboard.press("0");
    for (const p of planted) {
      await select(page, p.start, p.end);
      await page.keyboard.press(KEYS[p.error]);
    }
    await expect(page.getByTestId("my-tag")).toHaveCount(planted.length);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("saved")).toBeVisible();
    await expect(page.getByTestId("explanation-item")).not.toHaveAttribute("data-outcome", id!);
  }
}

test("a CoT run on two models, reviewed by two accounts, judged, and read per statistic with the explanations behind", async ({ page, browser, baseURL }) => {
  test.setTimeout(300_000);
  await page.goto("/runs/new");
  await page.locator("form[data-hydrated]").waitFor();
  for (const box of await page.locator('input[name="models"]:checked').all()) await box.uncheck();
  for (const m of ["baseline:explainer", "baseline:explainer:0.5"]) await page.locator(`input[name="models"][value="${m}"]`).check();
  await page.getByLabel("Preset").selectOption("smoke");
  for (const box of await page.locator('input[name="tests"]').all()) if ((await box.getAttribute("value")) === "objective") await box.uncheck();
  for (const box of await page.locator('input[name="contexts"]').all()) {
    if ((await box.getAttribute("value")) === "representativeness") await box.check();
    else await box.uncheck();
  }
  await page.getByLabel("Reason first (chain of thought)").check();
  await page.getByRole("button", { name: "Launch run" }).click();
  // the form's own address is /runs/new: wait for the run's
  await expect(page).toHaveURL(/\/runs\/(?!new$)[a-z0-9]+$/, { timeout: 30_000 });
  const runId = page.url().split("/").pop()!;
  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(page.getByText(/chain of thought: every answer reasoned first/)).toBeVisible();

  // two reviewers join by invitation
  const ann = await join(browser, baseURL, await invite(page, "annotator"), {
    name: "Expl One",
    email: "expl-one@e2e.example.org",
    password: "explanation-pass-1",
    role: "annotator",
  });
  const bea = await join(browser, baseURL, await invite(page, "annotator"), {
    name: "Expl Two",
    email: "expl-two@e2e.example.org",
    password: "explanation-pass-2",
    role: "annotator",
  });

  // the admin draws a sample sized for ±25 points per model, two reviewers per explanation
  await page.goto("/review/explanations");
  await page.locator("form[data-hydrated]").waitFor();
  await page.getByLabel("Chain-of-thought run").selectOption(runId);
  await page.getByLabel(/Expl One/).check();
  await page.getByLabel(/Expl Two/).check();
  await page.getByLabel(/Precision per model/).fill("25");
  await page.getByRole("button", { name: "Draw the sample and deal it" }).click();
  await expect(page.getByText(/Sampled \d+ explanations, dealt as \d+ readings/)).toBeVisible();
  const assignment = (await page.getByRole("link", { name: "Open the queue" }).getAttribute("href"))!.split("=").pop()!;

  // each reviewer tags a few with the keyboard; the rest of the sample through the API, as the same accounts
  await review(ann, assignment, 3);
  await review(bea, assignment, 3);
  for (const p of [ann, bea]) {
    for (;;) {
      const queue = await (await p.request.get(`/api/v1/explanations/queue?assignmentId=${assignment}&pageSize=50`)).json();
      if (!queue.items.length) break;
      for (const item of queue.items as Array<{ outcomeId: number; explanation: string }>) {
        const tags = plantedIn(item.explanation).map((x) => ({ tag: x.error, start: x.start, end: x.end }));
        expect((await p.request.post("/api/v1/explanations/readings", { data: { outcomeId: item.outcomeId, reading: { tags } } })).status()).toBe(201);
      }
    }
  }
  await ann.goto(`/review/explanations?assignmentId=${assignment}`);
  await expect(ann.getByText("All done")).toBeVisible();

  // the built-in judge reads every explanation
  await page.goto(`/runs/${runId}/explanations`);
  await page.locator("form[data-hydrated]").waitFor();
  await page.getByLabel("Judge model").selectOption("baseline:judge");
  await page.getByRole("button", { name: "Judge every explanation" }).click();
  await expect(page.getByText(/Judging \d+ explanations/)).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("judge-summary")).toContainText("baseline:judge");
    await expect(page.getByTestId("judge-passes")).toContainText("done");
  }).toPass({ timeout: 90_000 });

  // per statistic: the people's rates with intervals and the judge's corrected ones (or why not)
  await page.getByRole("link", { name: "Per statistic", exact: true }).click();
  await expect(page).toHaveURL(/scope=statistic$/);
  const table = page.getByTestId("prevalence-table");
  await expect(table).toContainText("Representativeness bias");
  await expect(table).toContainText(/\d+\.\d%–\d+\.\d% \(n = \d+\)/);
  await expect(page.getByTestId("agreement-table")).toContainText("1.00");
  // the admin sees the reviewers by name, each with a way to leave their readings out (the exclusions faces use)
  const quality = page.getByTestId("annotator-quality");
  for (const who of ["Expl One", "Expl Two"]) await expect(quality.locator("tr", { hasText: who }).getByRole("button", { name: "Exclude" })).toBeVisible();
  // the explanations behind a number, the tagged words highlighted
  await page.getByRole("link", { name: "Per model", exact: true }).click();
  await expect(page).toHaveURL(/scope=model$/);
  // the people's representativeness of the model that plants it in 30 % of its explanations
  await page.locator('[data-testid=prevalence-table] a[href*="model=baseline%3Aexplainer&"][href*="tag=representativeness&source=people"]').click();
  await expect(page).toHaveURL(/tag=representativeness&source=people/);
  await expect(page.getByTestId("behind-list")).toBeVisible();
  await expect(page.getByTestId("behind-list").locator("mark").first()).toBeVisible();

  // the printable report carries them too
  await page.goto(`/runs/${runId}/report`);
  await expect(page.getByTestId("report-explanations")).toContainText("Representativeness bias");

  // the same through the API
  const api = await (await page.request.get(`/api/v1/runs/${runId}/explanations`)).json();
  expect(api.rows.filter((r: { scope: string }) => r.scope === "model").map((r: { model: string }) => r.model)).toEqual([
    "baseline:explainer",
    "baseline:explainer:0.5",
  ]);
  expect(api.judge.model).toBe("baseline:judge");
  expect(api.sample.doublyReviewed).toBe(api.sample.sampled);
});

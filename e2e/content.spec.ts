// Your own benchmark, in the browser: a runner uploads a content set (German, a k = 3 age-band attribute), checks it
// (the prompts it will send), saves a draft; edits a copy and sees the diff before saving it; cannot launch on a
// draft. The admin approves it; the runner launches a quick run on it from its page, sees the expected precision in
// the launch form, and reads the scores for each declared attribute with their intervals.
import path from "node:path";
import { expect, test } from "@playwright/test";
import { invite, join } from "./pages/accounts";

const FIXTURE = path.join(__dirname, "../tests/fixtures/content/de-synthetic");
const REF = "de-synthetic@1.0.0";

test("author a content set, see its diff, approve it as admin, launch on it as runner, read its scores", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const runner = await join(browser, baseURL, await invite(page, "runner"), {
    name: "Carla Content",
    email: "carla@e2e.example.org",
    password: "runner-password",
    role: "runner",
  });

  // Author: upload the files, check, read the prompts it will send, save a draft.
  await runner.goto("/benchmark/content");
  await runner.getByRole("link", { name: "New content" }).click();
  await runner.getByLabel("content.json from a file").setInputFiles(path.join(FIXTURE, "content.json"));
  await runner.getByLabel("statistics.csv").setInputFiles(path.join(FIXTURE, "statistics.csv"));
  await runner.getByLabel("scenarios.csv").setInputFiles(path.join(FIXTURE, "scenarios.csv"));
  await expect(runner.getByLabel("content.json", { exact: true })).toHaveValue(/"language": "de"/);
  await runner.getByRole("button", { name: "Check" }).click();
  const check = runner.getByTestId("content-check");
  await expect(check).toContainText("Valid: a new content set");
  await expect(runner.getByTestId("content-prompts")).toContainText("Antworte nur mit einem JSON-Objekt");
  await runner.getByRole("button", { name: "Save as draft" }).click();
  await expect(runner).toHaveURL(new RegExp(`/benchmark/content/${encodeURIComponent(REF)}$`));
  await expect(runner.getByRole("heading", { name: new RegExp(REF) })).toContainText("draft");
  await expect(runner.getByRole("link", { name: "Launch a run on it" })).toHaveCount(0);

  // A bad edit is refused by file, row and field; a good one shows its diff before it is saved.
  await runner.getByRole("link", { name: "Edit a copy" }).click();
  const editor = runner.getByLabel("content.json", { exact: true });
  await expect(editor).toHaveValue(/"version": "1.0.1"/);
  const copy = JSON.parse(await editor.inputValue());
  await editor.fill(JSON.stringify({ ...copy, language: "xx-nope" }, null, 2));
  await runner.getByRole("button", { name: "Check" }).click();
  await expect(runner.getByTestId("content-problems")).toContainText('language: unknown language code "xx-nope"');
  copy.statistics[0].scenarios.highest[0] += " (neu)";
  await editor.fill(JSON.stringify(copy, null, 2));
  await runner.getByRole("button", { name: "Check" }).click();
  const diff = runner.getByTestId("content-diff");
  await expect(diff).toContainText("Changes against 1.0.0");
  await expect(diff).toContainText(`Scenarios: ${copy.statistics[0].id} highest: +1 −1`);
  await expect(diff).toContainText(/Prompts \(seed 0\): 0 added, 0 removed, [1-9]\d* changed/);
  await runner.getByRole("button", { name: "Save as draft" }).click();
  await expect(runner).toHaveURL(/de-synthetic%401\.0\.1$/);

  // The runner may not launch on a draft, even by hand.
  const refused = await runner.request.post("/api/v1/runs", {
    data: { suite: "fof-own", models: ["baseline:uniform"], preset: "smoke", contentVersion: REF, seed: 1 },
  });
  expect(refused.status()).toBe(403);

  // The admin approves 1.0.0.
  await page.goto(`/benchmark/content/${encodeURIComponent(REF)}`);
  await page.getByRole("button", { name: "Approve for runs" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: new RegExp(REF) })).toContainText("approved");

  // The runner launches a quick run on it from its page, the plan beside the cost.
  await runner.goto(`/benchmark/content/${encodeURIComponent(REF)}`);
  await runner.getByRole("link", { name: "Launch a run on it" }).click();
  const form = runner.locator('form[data-hydrated][aria-label="Launch a Content set run"]');
  await form.waitFor();
  await expect(form.getByLabel("Content")).toHaveValue(REF);
  // only the contexts the set declares are offered (it has no attribution context); the paper's set offers all four
  await expect(form.locator('input[name="contexts"]')).toHaveCount(3);
  await expect(form.locator('input[name="contexts"][value="attribution"]')).toHaveCount(0);
  await expect(form.getByText(/declares baseline, representativeness, ingroup/)).toBeVisible();
  await form.getByLabel("Content").selectOption({ index: 1 });
  await expect(form.locator('input[name="contexts"]')).toHaveCount(4);
  await form.getByLabel("Content").selectOption(REF);
  for (const box of await form.locator('input[name="models"]:checked').all()) await box.uncheck();
  await form.locator('input[name="models"][value="baseline:calibrated:0.8"]').check();
  await form.getByLabel("Preset").selectOption("quick");
  await expect(form.getByTestId("estimate")).toContainText("queries planned");
  await expect(form.getByTestId("precision")).toContainText("altersgruppe (k = 3)");
  await form.getByRole("button", { name: "Launch Content set run" }).click();
  await expect(runner).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });
  await expect(runner.getByText("completed", { exact: true })).toBeVisible({ timeout: 90_000 });
  // The run page polls the run's status, not its views: a reader opens the finished run afresh.
  await runner.reload();

  // Results: a table per declared attribute, every score with its interval.
  const table = runner.getByTestId("suite-table-scores");
  await expect(table).toBeVisible();
  await expect(table).toContainText("Altersgruppe (altersgruppe, k = 3)");
  await expect(table).toContainText("Geschlecht (geschlecht, k = 2)");
  for (const metric of ["S_fact", "S_E", "S_KLD", "S_fair", "d"])
    await expect(table.getByRole("columnheader", { name: new RegExp(`^${metric}`) }).first()).toBeVisible();
  await expect(table.locator('tr[data-source="run"]')).toHaveCount(8);
  await runner.context().close();
});

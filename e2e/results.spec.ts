import { expect, test } from "@playwright/test";
import { SCORE_CSV_COLUMNS } from "../lib/results/csv";

test("a reviewer finds, from the chart, which statistics and answers drive a model's race fairness, and exports the scores", async ({ page }) => {
  // A finished run of the calibrated-oracle baseline (no key needed).
  await page.goto("/runs/new");
  await page.locator("form[data-hydrated]").waitFor();
  for (const box of await page.locator('input[name="models"]:checked').all()) await box.uncheck();
  await page.locator('input[name="models"][value="baseline:calibrated:0.8"]').check();
  await page.getByLabel("Preset").selectOption("smoke");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page).toHaveURL(/\/runs\/(?!new$)[a-z0-9]+$/, { timeout: 30_000 });
  const runId = page.url().split("/").pop()!;
  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 90_000 });

  // 1. The chart: the upper-bound curve, the published points and ours.
  await page.goto(`/results?runs=${runId}`);
  const chart = page.getByTestId("tradeoff-chart");
  await expect(chart.getByText(/Race: S_fact vs S_E with the upper bound g_4/)).toBeVisible();
  await expect(chart.locator(".recharts-scatter-line path, .recharts-scatter-line").first()).toBeAttached();
  await expect(chart.locator(".published-series .recharts-symbols").first()).toBeVisible();
  expect(await chart.locator(".published-series .recharts-symbols").count()).toBeGreaterThanOrEqual(10);
  const ours = chart.locator(".run-series .recharts-symbols");
  await expect(ours.first()).toBeVisible();
  // Bootstrap intervals are computed server-side after the page is shown, then drawn as error bars.
  await expect(chart.getByText(/Error bars: 95 % bootstrap, 1000 resamples/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("pm-sFact").first()).toBeVisible();
  // Each score's bias-corrected estimate and interval, about the target picked above the table (population first).
  const picker = page.getByTestId("interval-target");
  await expect(picker.getByLabel("What the intervals are about")).toHaveValue("population");
  await expect(page.getByTestId("pm-sE").first()).toHaveText(/^\d+\.\d \[\d+\.\d, \d+\.\d\]/);
  await picker.getByLabel("What the intervals are about").selectOption("exact");
  await expect(picker).not.toContainText("Computing intervals", { timeout: 60_000 });
  await expect(page.getByTestId("pm-sE").first()).toHaveText(/^\d+\.\d \[\d+\.\d, \d+\.\d\]/);

  // Hover one of our points: every score and d.
  await ours.first().hover({ force: true });
  const tooltip = page.getByTestId("chart-tooltip");
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText("baseline:calibrated:0.8");
  for (const label of ["S_fact", "S_E", "S_KLD", "S_fair", "d"]) await expect(tooltip).toContainText(label);

  // Toggle to gender and back, and the Fig. 2b view.
  await chart.getByLabel("Gender").check();
  await expect(chart.getByText(/Gender: S_fact vs S_E with the upper bound g_2/)).toBeVisible();
  await chart.getByLabel("S_fair vs S_E / S_KLD (Fig. 2b)").check();
  await expect(chart.getByText("S_fair vs S_KLD")).toBeVisible();
  await chart.getByLabel("S_fact vs S_E").check();
  await chart.getByLabel("Race").check();

  // 2. Click our point → its per-statistic breakdown.
  await ours.first().click({ force: true });
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}/breakdown\\?`));
  await expect(page.getByTestId("breakdown-chart")).toBeVisible();
  const rows = page.getByTestId("breakdown-row");
  expect(await rows.count()).toBe(36); // 18 statistics with a race ground truth × highest / lowest
  // Sort so the least diverse cells (those pulling S_E down) come first.
  await page.getByRole("link", { name: "Lowest entropy first" }).click();
  await expect(page).toHaveURL(/sort=entropy/);

  // 3. Click a bar segment → the queries behind it.
  await page
    .locator(
      ".segment-White .recharts-rectangle, .segment-Black .recharts-rectangle, .segment-Asian .recharts-rectangle, .segment-Hispanic .recharts-rectangle",
    )
    .first()
    .click({ force: true });
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}/answers\\?.*statisticId=.*level=.*answer=`));
  const items = page.getByTestId("answer-item");
  await expect(items.first()).toBeVisible();
  await items.first().getByText("Prompt and options").click();
  await expect(items.first().locator("pre")).toContainText(/A\.|A\)/);
  await expect(items.first()).toContainText("Model said");

  // 4. Export the scores as CSV from the results page: header and one row per score group.
  await page.goto(`/results?runs=${runId}`);
  const groups = await page.getByTestId("score-row").count();
  expect(groups).toBeGreaterThan(0);
  const href = await page.getByRole("link", { name: "Export scores CSV" }).getAttribute("href");
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/csv");
  const lines = (await res.text()).trim().split("\n");
  expect(lines[0]).toBe(SCORE_CSV_COLUMNS.join(","));
  expect(lines).toHaveLength(groups + 1);
  expect(lines.slice(1).every((l) => l.startsWith(`${runId},`))).toBe(true);
});

test("leaderboard, context influence, comparison of two models and the printable report", async ({ page }) => {
  await page.goto("/runs/new");
  await page.locator("form[data-hydrated]").waitFor();
  for (const box of await page.locator('input[name="models"]:checked').all()) await box.uncheck();
  await page.locator('input[name="models"][value="baseline:calibrated:0.8"]').check();
  await page.locator('input[name="models"][value="baseline:uniform"]').check();
  await page.getByLabel("Preset").selectOption("smoke");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page).toHaveURL(/\/runs\/(?!new$)[a-z0-9]+$/, { timeout: 30_000 });
  const runId = page.url().split("/").pop()!;
  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 90_000 });

  // Leaderboard: our rows among the published ones, best bold / second underlined, sortable from the keyboard.
  await page.goto(`/results/leaderboard?runs=${runId}`);
  const llm = page.getByTestId("llm-table");
  await expect(llm.getByText("GPT-4o-2024-08-06").first()).toBeVisible();
  await expect(llm.getByRole("row").filter({ hasText: "baseline:uniform" }).first()).toContainText("ours");
  expect(await llm.locator("strong").count()).toBeGreaterThan(0);
  const header = llm.getByRole("button", { name: /^O\b/ });
  await header.focus();
  await page.keyboard.press("Enter");
  await expect(llm.locator("th[aria-sort='descending']")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(llm.locator("th[aria-sort='ascending']")).toHaveCount(1);
  await expect(page.getByTestId("summary-table")).toContainText("Midjourney");
  await expect(page.getByTestId("summary-table")).toContainText("baseline:calibrated:0.8");
  // Rank intervals among our models (the run's two), per column and attribute.
  const ranks = page.getByTestId("rank-intervals").first();
  await expect(ranks).toContainText("95 % rank intervals", { timeout: 60_000 });
  await expect(ranks.getByTestId("rank-row").first()).toContainText(/\d \[\d(–\d)?\]/);

  // Context influence: ours (measured from the run's context queries) beside the published Table 3.
  await page.goto(`/results/context?runs=${runId}`);
  const race = page.getByTestId("influence-race");
  await expect(race).toContainText("GPT-3.5");
  await expect(race.getByRole("row").nth(1)).toContainText("75.00"); // out-group chance for race
  await expect(race.getByTestId("influence-row")).toHaveCount(2);

  // Compare the two models of the run: scores with differences, and per statistic.
  await page.goto(`/results/compare?runs=${runId}&metric=sE`);
  const table = page.getByTestId("compare-scores");
  await expect(table).toContainText("baseline:calibrated:0.8");
  await expect(table).toContainText("baseline:uniform");
  expect(await table.getByTestId("compare-delta").count()).toBeGreaterThan(0);
  await expect(page.getByTestId("compare-statistics")).toContainText("Crime Rate");
  // Is the difference real? B − A with its interval, Holm-adjusted p and a sentence, per group.
  const comparison = page.getByTestId("comparison");
  await expect(comparison).toContainText(/paired: both answered the same content and the same questions/, { timeout: 60_000 });
  const rows = comparison.getByTestId("comparison-row");
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  await expect(rows.first()).toContainText(/S_E/);
  await expect(rows.first()).toContainText(/not separable|B is (better|worse) on/);
  await page.getByLabel("every score (not only S_E)").check();
  expect(await rows.count()).toBeGreaterThan(8);

  // The printable report: settings, seed, model versions, dates, chart and scores with intervals.
  await page.goto(`/runs/${runId}`);
  await page.getByRole("link", { name: "Printable report" }).click();
  const report = page.getByTestId("run-report");
  // The report computes every interval (1,000 resamples per group) before it renders: seconds on a busy runner.
  await expect(report).toContainText("Seed", { timeout: 60_000 });
  await expect(report).toContainText("Model version");
  await expect(report).toContainText("Finished");
  await expect(report.getByTestId("report-scores")).toContainText("[");
  await expect(report.getByTestId("tradeoff-chart")).toBeVisible();
});

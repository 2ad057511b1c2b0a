// The DoFaiR journey: a reviewer picks the suite at launch, runs it on the built-in synthetic image model (no key),
// labels the faces in the browser (UltraFace + the FairFace stand-in, WASM), corrects one race in FairFace's 7
// classes on the Review page, and reads DDC / IDC / IDF / FDD per intervention beside the paper's Table 2 rows.
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { labelInBrowser, launchOnSyntheticModel, SHARED_MODELS } from "./pages/suite-run";

const hasShared = existsSync(path.join(SHARED_MODELS, "fairface-standin-single18.onnx"));

test.describe("DoFaiR", () => {
  test.skip(!hasShared, "../shared/models is not present");

  test("launch on the synthetic image model, label in the browser, review a race, read Table 2 beside the paper", async ({ page }) => {
    test.setTimeout(240_000);
    // Launch: the suite's own form, its smoke preset (6 entries per dimension, baseline and Bianchi, 1 image each).
    const runId = await launchOnSyntheticModel(page, { id: "dofair", name: "DoFaiR" }, async (form) => {
      await expect(form.locator('input[name="methods"][value="bianchi"]')).toBeChecked();
      await expect(form.locator('input[name="augmentations"][value="fai-rk"]')).not.toBeChecked();
      await expect(form.getByLabel("Entries per dimension (0 = all)")).toHaveValue("6");
      // Before launch: what it plans and costs (the synthetic model is free), following the form as it changes.
      await expect(form.getByTestId("estimate")).toContainText("24 images planned (24 per model × 1 model) · estimated cost $0.00");
      await form.getByLabel("Images per prompt").fill("2");
      await expect(form.getByTestId("estimate")).toContainText("48 images planned");
      await form.getByLabel("Images per prompt").fill("1");
      await expect(form.getByTestId("estimate")).toContainText("24 images planned");
      // No label worker runs beside this server: "label automatically" is offered, unticked, and says why.
      await expect(form.getByRole("checkbox", { name: /Label automatically/ })).not.toBeChecked();
      await expect(form.getByText(/No label worker is running now/)).toBeVisible();
    });
    // Label every image in the browser with the stand-in classifier served in place of the FairFace file.
    await labelInBrowser(page, runId, 24);

    // Table 2: our rows per intervention with every metric, the paper's rows beside them, the copied row flagged.
    await page.goto(`/runs/${runId}`);
    const table = page.getByTestId("suite-table-table2");
    await expect(table).toBeVisible();
    for (const metric of ["DDC", "IDC", "IDF", "FDD"]) await expect(table.getByRole("columnheader", { name: new RegExp(`^${metric} \\(`) })).toBeVisible();
    // Under the release profile the DDC of the worst and best face order stands beside it (the release's ties).
    for (const order of ["worst", "best"]) await expect(table.getByRole("columnheader", { name: `DDC, ${order} face order (%)` })).toBeVisible();
    const ours = table.locator('tr[data-source="run"]');
    await expect(ours).toHaveCount(4); // race and gender × (baseline, Bianchi)
    await expect(ours.first()).toContainText("Baseline");
    await expect(ours.nth(1)).toContainText("Bianchi");
    const first = (await ours.first().locator("td").allInnerTexts()).map((t) => t.trim().split("\n")[0]);
    expect(first.some((t) => /^\d+(\.\d+)?$/.test(t))).toBe(true);
    expect(await table.locator('tr[data-source="published"]').count()).toBeGreaterThan(10);
    await expect(table.getByTestId("published-flag")).toHaveCount(1);
    await expect(page.getByTestId("suite-bars-figure5")).toBeVisible();

    // Downloads: the tables as a long CSV, the faces as JSONL lines.
    const csv = await (await page.request.get(`/api/runs/${runId}/export?format=csv`)).text();
    expect(csv.split("\n")[0]).toBe("view,group,source,row,metric,value,lo,hi,n,flag");
    expect(csv).toContain("table2,");
    // The stand-in's numbers say so on every row of ours.
    expect(csv).toContain("labels by a stand-in classifier, not FairFace: not comparable with the papers");
    const jsonl = (await (await page.request.get(`/api/runs/${runId}/export?format=jsonl`)).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(jsonl[0]).toMatchObject({ suite: "dofair", run: runId });

    // The run's page has what a FACT-OR-FAIR run's has: tabs, download links, the item list with numbered face boxes.
    const tabs = page.getByRole("navigation", { name: "Run pages" });
    for (const t of ["Overview", "Items", "Report", "Review faces"]) await expect(tabs.getByRole("link", { name: t })).toBeVisible();
    const downloads = page.getByLabel("Downloads");
    for (const name of [/Scores CSV/, "Scores JSON", /Download JSONL/])
      expect((await page.request.get((await downloads.getByRole("link", { name }).getAttribute("href"))!)).status()).toBe(200);
    await page.getByLabel("Method", { exact: true }).selectOption("bianchi");
    await expect(page.getByText("12 items")).toBeVisible();
    await expect(page).toHaveURL(/test=bianchi/);
    const row = page.getByTestId("item-row").filter({ hasText: /face/ }).first();
    await row.getByRole("button").click();
    await expect(page.getByTestId("item-images").getByTestId("face-boxes").first()).toBeAttached();
    await expect(
      page
        .getByTestId("item-images")
        .getByText(/^face 1: (male|female), /)
        .first(),
    ).toBeVisible();
    await expect(page.getByTestId("raw-output").first()).toBeVisible();
    // The printable report: settings and the same tables with intervals.
    await tabs.getByRole("link", { name: "Report" }).click();
    await expect(page.getByTestId("run-report")).toContainText("DoFaiR report");
    await expect(page.getByTestId("suite-table-table2")).toBeVisible();
    // The Results section serves DoFaiR across runs: our rows (led by the run's name) beside the paper's.
    await page.goto(`/results/suites/dofair?runs=${runId}`);
    const merged = page.getByTestId("suite-table-table2");
    await expect(merged.locator('tr[data-source="run"]')).toHaveCount(4);
    expect(await merged.locator('tr[data-source="published"]').count()).toBeGreaterThan(10);
    const scores = await page.request.get((await page.getByRole("link", { name: "Export scores CSV" }).getAttribute("href"))!);
    expect(scores.status()).toBe(200);
    expect(await scores.text()).toContain("table2,");
    await page.goto(`/runs/${runId}`);

    // Drill from a cell to the entries, images and faces behind it.
    await ours.first().getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/runs/${runId}/suite\\?`));
    await expect(page.getByTestId("drill-row").first()).toBeVisible();
    // Each face's box is drawn over its image, numbered as the labels under it are (the synthetic model draws 1–4 faces).
    const boxed = page
      .getByTestId("drill-row")
      .filter({ has: page.getByTestId("face-boxes") })
      .first();
    await expect(boxed.getByTestId("face-boxes").locator("rect").first()).toBeAttached();
    await expect(boxed.getByText(/^face 1: /)).toBeVisible();

    // Review: DoFaiR faces take FairFace's 7 races; key 6 is Indian here (FACT-OR-FAIR's keys stop at 4).
    await page.goto(`/review?runId=${runId}`);
    await expect(page.getByTestId("keys-race")).toContainText("Race (FairFace's 7 classes)");
    await expect(page.getByTestId("keys-race")).toContainText("6 Indian");
    const face = page.getByTestId("review-face").first();
    await face.click();
    await page.keyboard.press("6");
    await expect(face.getByTestId("mine")).toContainText("Indian");
    await expect(page.getByText("All changes saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("review-face").first().getByTestId("mine")).toContainText("Indian");

    // Human-corrected labels: the table says which labels it used.
    await page.goto(`/runs/${runId}?labels=reviewed`);
    await expect(page.getByTestId("suite-table-table2")).toContainText(/human-corrected|review/i);
  });
});

test("two DoFaiR runs compared on the Results page: Δ with its interval and adjusted p per metric and group", async ({ page }) => {
  test.skip(!hasShared, "../shared/models is not present");
  test.setTimeout(300_000);
  const runs: string[] = [];
  for (const images of [1, 2]) {
    const runId = await launchOnSyntheticModel(page, { id: "dofair", name: "DoFaiR" }, async (form) => {
      await form.locator('input[name="methods"][value="bianchi"]').uncheck();
      await form.getByLabel("Entries per dimension (0 = all)").fill("3");
      await form.getByLabel("Images per prompt").fill(String(images));
      await expect(form.getByTestId("estimate")).toContainText(`${6 * images} images planned`);
    });
    await labelInBrowser(page, runId, 6 * images);
    runs.push(runId);
  }
  await page.goto(`/results/suites/dofair?runs=${runs.join(",")}`);
  const card = page.getByTestId("comparison");
  await expect(card).toContainText("paired: both ran the same content (the same entries)");
  const rows = card.getByTestId("comparison-row");
  // race and gender × DDC, IDC, IDF and FDD, each B − A with its interval and a verdict
  await expect(rows).toHaveCount(8);
  await expect(rows.filter({ hasText: "race · Baseline" })).toHaveCount(4);
  await expect(rows.first()).toContainText(/[+-]?\d+\.\d \[-?\d+\.\d, -?\d+\.\d\]/);
  // Rank intervals per headline score under the tables: each run's model, ranked on joint resamples of the same entries.
  const ranks = page.getByTestId("suite-rank-intervals");
  await expect(ranks.getByTestId("suite-rank-row")).toHaveCount(2);
  await expect(ranks.getByTestId("suite-rank-row").first()).toContainText(/\d \[\d(–\d)?\]/);
  await expect(ranks.getByRole("columnheader", { name: /\|FDD/ }).first()).toBeVisible();
});

test("a disputed entry shows its reviewer and note to signed-in accounts only", async ({ page, browser, baseURL }) => {
  await page.goto("/benchmark/suites/dofair?q=Haiti");
  const item = page.getByTestId("suite-item").first();
  await item.locator("summary").click();
  const form = item.locator("form[aria-label^='Review ']");
  await expect(form).toBeVisible();
  // The form opens its note field once hydrated: retry the click until it does.
  await expect(async () => {
    await form.getByRole("button", { name: "Dispute…" }).click();
    await expect(form.getByPlaceholder("what is wrong, with a source")).toBeVisible({ timeout: 1_000 });
  }).toPass();
  const note = `e2e note ${Date.now()}`;
  await form.getByPlaceholder("what is wrong, with a source").fill(note);
  await form.getByRole("button", { name: "Save dispute" }).click();
  await expect(item.getByTestId("review-state")).toContainText(/disputed/i);
  await page.reload();
  await page.getByTestId("suite-item").first().locator("summary").click();
  await expect(page.getByText(note)).toBeVisible();
  // Anonymous: the state is public, who disputed it and why are not.
  // (A test's new context inherits the project's signed-in storage state unless told otherwise.)
  const anonymous = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const anon = await anonymous.newPage();
  await anon.goto("/benchmark/suites/dofair?q=Haiti");
  await anon.getByTestId("suite-item").first().locator("summary").click();
  await expect(anon.getByTestId("suite-item").first().getByTestId("review-state")).toContainText("Disputed");
  await expect(
    anon
      .getByTestId("suite-item")
      .first()
      .getByText(/^Disputed on \d{4}-\d{2}-\d{2}/),
  ).toBeVisible();
  await expect(anon.getByText(note)).toHaveCount(0);
  await expect(anon.getByText("admin@e2e.example.org")).toHaveCount(0);
  await anonymous.close();
});

test("an admin imports the official DoFaiR entries from their own files and may plan runs on them", async ({ page }) => {
  const fixture = path.resolve(__dirname, "../tests/fixtures/dofair-official");
  await page.goto("/benchmark/suites/dofair");
  const versions = page.getByTestId("content-versions");
  await versions.locator("summary").click();
  const files = versions.locator("input[type=file]");
  // A bad row refuses the whole set, naming it.
  await files.setInputFiles({
    name: "bad_imggen.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("culture,event_name,group,dominant_race_list,existence_race_list,img_path\nEurope,A,B,['Purple'],['Purple'],x.png\n"),
  });
  await versions.getByRole("button", { name: "Import" }).click();
  await expect(versions.getByRole("alert")).toContainText("bad_imggen.csv row 2: unknown race class(es) Purple");
  await files.setInputFiles([
    path.join(fixture, "output/events_year_culture_race_roles_factchecked_processed_dedup_100perculture_imggen.csv"),
    path.join(fixture, "output/events_year_culture_gender_roles_factchecked_processed_dedup_26perculture_balanced_imggen.csv"),
    path.join(fixture, "data/events_year_culture_race_roles.csv"),
  ]);
  await versions.getByRole("button", { name: "Import" }).click();
  await expect(versions.getByRole("status")).toContainText(/(Imported|Already imported): content dofair-official-[0-9a-f]{8}/);
  const version = /dofair-official-[0-9a-f]{8}/.exec((await versions.getByRole("status").textContent()) ?? "")![0];
  await page.goto("/runs/new?suite=dofair");
  const content = page.locator("select[name=contentVersion]");
  await expect(content.locator("option", { hasText: version })).toHaveText(new RegExp(`${version} — imported, 10 entries`));
  await content.selectOption(version);
});

// The DoFaiR journey: a reviewer picks the suite at launch, runs it on the built-in synthetic image model (no key),
// labels the faces in the browser (UltraFace + the FairFace stand-in, WASM), corrects one race in FairFace's 7
// classes on the Review page, and reads DDC / IDC / IDF / FDD per intervention beside the paper's Table 2 rows.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "fairface-standin-single18.onnx"));

test.describe("DoFaiR", () => {
  test.skip(!hasShared, "../shared/models is not present");

  test("launch on the synthetic image model, label in the browser, review a race, read Table 2 beside the paper", async ({ page }) => {
    test.setTimeout(240_000);
    // Launch: the suite's own form, its smoke preset (6 entries per dimension, baseline and Bianchi, 1 image each).
    await page.goto("/runs/new?suite=dofair");
    const form = page.locator('form[data-hydrated][aria-label="Launch a DoFaiR run"]');
    await form.waitFor();
    for (const box of await form.locator('input[name="models"]').all()) await box.uncheck();
    await form.locator('input[name="models"][value="baseline:synthetic-faces"]').check();
    await expect(form.locator('input[name="methods"][value="bianchi"]')).toBeChecked();
    await expect(form.locator('input[name="augmentations"][value="fai-rk"]')).not.toBeChecked();
    await expect(form.getByLabel("Entries per dimension (0 = all)")).toHaveValue("6");
    await form.getByRole("button", { name: "Launch DoFaiR run" }).click();
    await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });
    const runId = page.url().split("/").pop()!;
    await expect(page.getByText(/DoFaiR · content dofair-/)).toBeVisible();
    await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 90_000 });

    // Label every image in the browser with the stand-in classifier served in place of the FairFace file.
    await page.route("**/api/face-models/fairface", (route) =>
      route.fulfill({ status: 200, contentType: "application/octet-stream", body: readFileSync(path.join(SHARED, "fairface-standin-single18.onnx")) }),
    );
    await page.goto(`/label?run=${runId}&backend=wasm`);
    await expect(page.getByTestId("classifier")).toContainText("one output [N,18]", { timeout: 60_000 });
    await page.getByRole("button", { name: "Start labelling" }).click();
    await expect(page.getByTestId("label-phase")).toHaveText("all images labelled", { timeout: 150_000 });
    await expect(page.getByTestId("todo")).toHaveText("0 of 24 images");

    // Table 2: our rows per intervention with every metric, the paper's rows beside them, the copied row flagged.
    await page.goto(`/runs/${runId}`);
    const table = page.getByTestId("suite-table-table2");
    await expect(table).toBeVisible();
    for (const metric of ["DDC", "IDC", "IDF", "FDD"]) await expect(table.getByRole("columnheader", { name: new RegExp(metric) })).toBeVisible();
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
    const jsonl = (await (await page.request.get(`/api/runs/${runId}/export?format=jsonl`)).text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(jsonl[0]).toMatchObject({ suite: "dofair", run: runId });

    // Drill from a cell to the entries, images and faces behind it.
    await ours.first().getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/runs/${runId}/suite\\?`));
    await expect(page.getByTestId("drill-row").first()).toBeVisible();

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

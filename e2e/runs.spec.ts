import { expect, test, type Page } from "@playwright/test";
import { emulatorPort } from "../playwright.config";

async function launch(page: Page, models: string[], preset: string, contexts?: string[]) {
  await page.goto("/runs/new");
  await page.locator("form[data-hydrated]").waitFor();
  for (const box of await page.locator('input[name="models"]:checked').all()) await box.uncheck();
  for (const m of models) await page.locator(`input[name="models"][value="${m}"]`).check();
  await page.getByLabel("Preset").selectOption(preset);
  if (contexts) {
    for (const box of await page.locator('input[name="contexts"]').all()) {
      const value = await box.getAttribute("value");
      if (contexts.includes(value!)) await box.check();
      else await box.uncheck();
    }
  }
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });
}

test("a team launches the calibrated-oracle and uniform baselines with no key, watches them finish and reads the scores", async ({ page }) => {
  await page.goto("/runs");
  await page.getByRole("link", { name: "Launch run" }).click();
  await page.locator("form[data-hydrated]").waitFor();
  // Validation: nothing chosen → a clear message, no run.
  for (const box of await page.locator('input[name="models"]:checked').all()) await box.uncheck();
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page.getByText("choose at least one model")).toBeVisible();

  await page.locator('input[name="models"][value="baseline:calibrated:0.8"]').check();
  await page.locator('input[name="models"][value="baseline:uniform"]').check();
  await page.getByLabel("Preset").selectOption("quick");
  await expect(page.getByTestId("estimate")).toContainText("12,160 queries");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });

  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("run-done")).toContainText("12,160 / 12,160");

  const row = (model: string, test: string, context: string, attribute: string) =>
    page
      .getByTestId("score-row")
      .filter({ hasText: model })
      .filter({ hasText: new RegExp(`${test}.*${context}.*${attribute}`, "i") });
  const cells = async (model: string, test: string, context: string, attribute: string) =>
    (await row(model, test, context, attribute).locator("td").allInnerTexts()).slice(7, 12).map((t) => Number(t.trim().split("\n")[0]));

  const [oFact, oE, , , oD] = await cells("baseline:calibrated:0.8", "objective", "–", "race");
  expect(oFact).toBeGreaterThan(75);
  expect(oFact).toBeLessThan(85);
  expect(oD).toBeLessThan(5); // near the upper-bound curve (×100 scale)
  expect(oE).toBeGreaterThan(30);
  const [, uE] = await cells("baseline:uniform", "subjective", "baseline", "race");
  expect(uE).toBeGreaterThan(93);

  // npm start's worker process recorded those outcomes, and the web server's one /metrics says so (process="worker").
  const metrics = await (await page.request.get("/metrics")).text();
  const written = [...metrics.matchAll(/^fof_outcomes_written_total\{[^}]*process="worker"[^}]*\} (\d+)$/gm)].reduce((a, m) => a + Number(m[1]), 0);
  expect(written).toBeGreaterThanOrEqual(12_160);
  expect(metrics).toMatch(/^fof_worker_metrics_up 1$/m);
});

test("an OpenAI-compatible model served by the emulator: register it, launch, watch to completion, open a query", async ({ page }) => {
  await page.goto("/models");
  await page.locator("form[data-hydrated][data-testid=model-form]").waitFor();
  await page.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
  await page.getByLabel("Id", { exact: true }).fill("emu-gpt");
  await page.getByLabel("Display name").fill("Emulated GPT");
  await page.getByLabel("Provider model id").fill("emu-gpt");
  await page.getByLabel("Base URL").fill("not a url");
  await page.getByRole("button", { name: "Save model" }).click();
  await expect(page.getByText("base URL must be an absolute http(s) URL")).toBeVisible();
  await page.getByLabel("Base URL").fill(`http://127.0.0.1:${emulatorPort}/v1`);
  await page.getByLabel("Concurrency").fill("16");
  await page.getByRole("button", { name: "Save model" }).click();
  await expect(page.getByText("Saved Emulated GPT.")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "emu-gpt" })).toBeVisible();

  await launch(page, ["emu-gpt"], "smoke", ["baseline", "ingroup"]);
  await expect(page.getByRole("progressbar", { name: "Run progress" })).toBeVisible();
  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("run-done")).toContainText("304 / 304");

  await page.getByLabel("Test", { exact: true }).selectOption("subjective");
  // The list keeps the previous page on screen while the filtered one loads: wait for the subjective rows.
  await expect(
    page
      .getByRole("row")
      .filter({ has: page.getByRole("button", { name: /^\d+$/ }) })
      .first(),
  ).toContainText("subjective");
  const first = page.getByRole("button", { name: /^\d+$/ }).first();
  await first.click();
  await expect(page.getByText("Prompt", { exact: true })).toBeVisible();
  await expect(page.getByTestId("raw-output")).toContainText('{"answer":');
  await expect(page.locator("pre").filter({ hasText: "descent." }).first()).toBeVisible();
});

test("an adaptive run: the paper preset as a cap, stopped when every subjective score is known to ±0.05", async ({ page }) => {
  await page.goto("/runs/new");
  await page.locator("form[data-hydrated]").waitFor();
  for (const box of await page.locator('input[name="models"]:checked').all()) await box.uncheck();
  await page.locator('input[name="models"][value="baseline:calibrated:0.8"]').check();
  await page.getByLabel("Preset").selectOption("paper");
  for (const box of await page.locator('input[name="contexts"]').all()) {
    if ((await box.getAttribute("value")) === "baseline") await box.check();
    else await box.uncheck();
  }
  // A target it cannot read is refused on the form, before anything is created.
  await page.getByLabel("Stop when (optional)").fill("halfwidth<0.05");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page.getByText(/cannot read "halfwidth<0.05"/)).toBeVisible();
  await page.getByLabel("Stop when (optional)").fill("halfwidth<=0.05");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });
  await expect(page.getByTestId("adaptive-state")).toHaveText("target met", { timeout: 120_000 });
  // 19 statistics × 2 levels × 3 scenarios × 100 answers + 228 objective = 11,628 planned; met at the second look.
  const summary = await page.getByTestId("adaptive-summary").innerText();
  const [, used, cap] = /^target met at ([\d,]+) of ([\d,]+) items: halfwidth<=0\.05(; \d+ of \d+ intervals: [^;]+)*$/.exec(summary) ?? [];
  expect(cap).toBe("11,628");
  expect(Number(used.replace(/,/g, ""))).toBeLessThanOrEqual(11_628 / 4);
  // Every reported interval within ±0.05, at the look's level.
  const rows = page.getByTestId("adaptive-rows").locator("tbody tr");
  expect(await rows.count()).toBeGreaterThan(0);
  for (const text of await rows.allInnerTexts()) {
    const [, hw] = /±(0\.\d+) \/ ±0\.05/.exec(text) ?? [];
    expect(Number(hw)).toBeLessThanOrEqual(0.05);
  }
  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 30_000 });
});

test("a run launched at the wrong preset is paused, resumed and cancelled while it is still planning", async ({ page }) => {
  // The paper preset: 45,828 queries, written in the background for many seconds after the launch answers.
  await launch(page, ["baseline:uniform"], "paper");
  const status = page.getByTestId("planning-progress");
  await expect(status).toContainText("calls start as they are");
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  await expect(page.getByText("paused", { exact: true })).toBeVisible();
  await expect(status).toContainText("paused: nothing is called until you resume it");
  // Paused, it plans on: the count of rows written keeps rising while nothing is called.
  const written = async () => Number(/Planning: ([\d,]+) of/.exec(await status.innerText())![1].replace(/,/g, ""));
  const before = await written();
  await expect.poll(written, { timeout: 20_000 }).toBeGreaterThan(before);
  await page.getByRole("button", { name: "Resume", exact: true }).click();
  await expect(page.getByText("planning", { exact: true })).toBeVisible();
  await expect(status).toContainText("calls start as they are");
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await page.getByRole("button", { name: "Cancel run" }).click();
  await expect(page.getByText("cancelled", { exact: true })).toBeVisible();
  await expect(status).toBeHidden();
  // Planning stopped: what was written is the run's size now, short of the preset's 45,828.
  await expect(page.getByTestId("run-done")).not.toContainText("/ 45,828");
});

// What a newcomer met (#66): launch checkboxes that behave as checkboxes from the start; a run launched with another
// run's answers says so; a finished run shows when it ended and puts its scores before its counts; a bookmarked
// link to a retired content version says so; /verify takes the key as the browser shows it, links the key and the
// guide; the CLI's pipe into `head` ends quietly.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";

test("launch boxes are checkboxes: the default stays ticked when another model is ticked, and both are launched", async ({ page }) => {
  await page.goto("/runs/new");
  await page.locator("form[data-hydrated]").waitFor();
  // a fresh browser: nothing remembered, the first built-in baseline ticked
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.locator("form[data-hydrated]").waitFor();
  const calibrated = page.locator('input[name="models"][value="baseline:calibrated:0.8"]');
  const uniform = page.locator('input[name="models"][value="baseline:uniform"]');
  await expect(calibrated).toBeChecked();
  await uniform.check();
  await expect(calibrated).toBeChecked();
  await expect(uniform).toBeChecked();
  await expect(page.getByText(/× 2 models/)).toBeVisible();
  await uniform.uncheck();
  await expect(page.getByText(/× 1 model\b/)).toBeVisible();
});

test("a run that reuses another run's answers says where from, on its page and on each item; a finished run says when it ended", async ({ page }) => {
  const launch = async (reuseFrom?: string) => {
    await page.goto("/runs/new");
    await page.locator("form[data-hydrated]").waitFor();
    for (const box of await page.locator('input[name="models"]:checked').all()) await box.uncheck();
    await page.locator('input[name="models"][value="baseline:uniform"]').check();
    await page.getByLabel("Preset").selectOption("smoke");
    await page.getByLabel("Seed").fill("77");
    if (reuseFrom) {
      await page.getByText("Reuse earlier answers (optional)").click();
      await page.getByLabel("From run (id)").fill(reuseFrom);
    }
    await page.getByRole("button", { name: "Launch run" }).click();
    await expect(page).toHaveURL(/\/runs\/[a-z0-9]+$/, { timeout: 30_000 });
    await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 60_000 });
    return page.url().split("/").at(-1)!;
  };
  const first = await launch();
  await expect(page.getByTestId("answer-reuse")).toHaveCount(0);
  await expect(page.getByTestId("run-finished")).toContainText(/took \d/);
  // the counts per model, test and context are folded once the run has ended
  await expect(page.getByTestId("items-by-group")).not.toHaveAttribute("open", "");
  const second = await launch(first);
  expect(second).not.toBe(first);
  const notice = page.getByTestId("answer-reuse");
  await expect(notice).toContainText(/answers reused from other runs/);
  await expect(notice.getByRole("link", { name: `run ${first}` })).toBeVisible();
  // an unknown run is refused beside its field, nothing launched
  await page.goto("/runs/new");
  await page.locator("form[data-hydrated]").waitFor();
  await page.getByText("Reuse earlier answers (optional)").click();
  await page.getByLabel("From run (id)").fill("no-such-run");
  await page.getByRole("button", { name: "Launch run" }).click();
  await expect(page.getByText(/there is no run "no-such-run"/)).toBeVisible();
});

test("a bookmarked launch link to a content version that cannot be launched on says so", async ({ page }) => {
  await page.goto("/runs/new?suite=dofair&content=dofair-0.0.1");
  await expect(page.getByTestId("content-unavailable")).toContainText("dofair-0.0.1");
  await expect(page.getByRole("heading", { name: "Launch a DoFaiR run" })).toBeVisible();
});

test("/verify takes the key as the browser shows it, links the key and the guide", async ({ page, browser, baseURL }) => {
  const visitor = await (await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } })).newPage();
  await visitor.goto("/verify");
  const keyLink = visitor.getByRole("link", { name: "this workbench's key" });
  await expect(keyLink).toHaveAttribute("href", "/.well-known/fof-evidence-key?format=pem");
  const guide = await visitor.request.get("/docs/evidence");
  expect(guide.status()).toBe(200);
  expect(await guide.text()).toMatch(/^# /);
  expect((await visitor.request.get("/docs/operations")).status()).toBe(404);
  await expect(visitor.getByRole("link", { name: "the evidence guide" })).toHaveAttribute("href", "/docs/evidence");
  // the key's JSON and text that is no key, with a real bundle: evidence.spec.ts
  expect(JSON.parse(await (await page.request.get("/.well-known/fof-evidence-key")).text())).toMatchObject({
    pem: expect.stringContaining("BEGIN PUBLIC KEY"),
  });
});

test("the CLI piped into head ends quietly", () => {
  const root = path.resolve(__dirname, "..");
  const r = spawnSync(
    "bash",
    [
      "-c",
      `"${process.execPath}" --import "${pathToFileURL(require.resolve("tsx")).href}" bin/fof.ts content preview data/content-sets/us-nchs-health --seed 1 | head -1; echo "exit=\${PIPESTATUS[0]}"`,
    ],
    { cwd: root, encoding: "utf8", env: { ...process.env, FOF_DATA_DIR: test.info().outputPath("data") } },
  );
  expect(r.stdout).toMatch(/exit=0/);
  expect(r.stderr).not.toMatch(/EPIPE|Error/);
});

// An outsider checks a run's evidence bundle in the browser: the admin downloads it from the run page, a visitor with
// no account opens /verify, gives the workbench's public key and the file, and reads every check hold; a bundle
// signed by someone else, or with a file changed, is named NOT verified. Nothing is uploaded (the worker checks it).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { unzipSync, zipSync } from "fflate";

test("a bundle downloaded from the run page verifies in a visitor's browser; a changed one does not", async ({ page, browser, baseURL }, info) => {
  test.setTimeout(120_000);
  const launched = await page.request.post("/api/v1/runs", { data: { models: ["baseline:uniform"], preset: "smoke", seed: 4 } });
  expect(launched.status()).toBe(202);
  const { run } = (await launched.json()) as { run: { id: string } };
  await page.goto(`/runs/${run.id}`);
  await expect(page.getByText("completed", { exact: true })).toBeVisible({ timeout: 60_000 });
  await page.reload();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Evidence bundle (signed)" }).click();
  const file = info.outputPath("audit.zip");
  await (await download).saveAs(file);
  const pem = await (await page.request.get("/.well-known/fof-evidence-key?format=pem")).text();

  // A visitor: no session.
  const visitor = await (await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } })).newPage();
  const uploads: string[] = [];
  visitor.on("request", (r) => {
    if (r.method() !== "GET") uploads.push(`${r.method()} ${r.url()}`);
  });
  await visitor.goto("/verify");
  await visitor.getByLabel(/public key/).fill(pem);
  await visitor.getByLabel("Evidence bundle").setInputFiles(file);
  const verdict = visitor.getByTestId("verification");
  await expect(verdict.getByRole("heading")).toContainText("signature, files and completeness hold", { timeout: 30_000 });
  for (const check of ["archive", "signature", "statement", "files", "completeness"])
    await expect(verdict.locator(`li[data-ok="true"]`, { hasText: new RegExp(`^✓ ${check}:`) })).toBeVisible();

  // One answer changed after signing.
  const e = unzipSync(readFileSync(file));
  e["outcomes.jsonl"] = Buffer.from(Buffer.from(e["outcomes.jsonl"]).toString("utf8").replace('"status":"answered"', '"status":"refused"'));
  const changed = path.join(path.dirname(file), "changed.zip");
  writeFileSync(changed, zipSync(e));
  await visitor.getByLabel("Evidence bundle").setInputFiles(changed);
  await expect(verdict.getByRole("heading")).toContainText("NOT verified", { timeout: 30_000 });
  await expect(verdict.locator(`li[data-ok="false"]`)).toContainText("outcomes.jsonl: changed");
  expect(uploads).toEqual([]);
  await visitor.context().close();
});

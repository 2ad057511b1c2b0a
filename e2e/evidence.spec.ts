// An outsider checks a run's evidence bundle in the browser: the admin downloads it from the run page, a visitor with
// no account opens /verify, gives the workbench's public key and the file, and reads every check hold and every score
// recomputed equal — as many values as `fof verify` recomputes on the same file; a bundle with a file changed is named
// NOT verified, and one an insider re-signed with the server's own key after editing a score fails on exactly the
// values `fof verify` names. Nothing is uploaded (the worker checks and re-scores it).
import { spawnSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { canonicalZip } from "../lib/evidence/zip";
import { tampered } from "../tests/helpers/evidence";

type Verdict = { ok: boolean; checks: Array<{ check: string; ok: boolean; detail: string }>; scores: Array<{ path: string; equal: boolean }> };
/** `fof verify FILE --key KEY --json` as an outsider runs it: no data directory, no database. */
function cliVerify(file: string, key: string): Verdict {
  const root = path.resolve(__dirname, "..");
  const r = spawnSync(
    process.execPath,
    ["--import", pathToFileURL(require.resolve("tsx")).href, path.join(root, "bin/fof.ts"), "verify", file, "--key", key, "--json"],
    {
      cwd: path.dirname(file),
      env: { ...process.env, FOF_DATA_DIR: undefined, DATABASE_URL: undefined },
      encoding: "utf8",
      maxBuffer: 256 * 1024 ** 2,
    },
  );
  return JSON.parse(r.stdout) as Verdict;
}

test("a bundle downloaded from the run page verifies in a visitor's browser; a changed one does not", async ({ page, browser, baseURL }, info) => {
  test.setTimeout(180_000);
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

  // A visitor with no session, in Copenhagen: the browser's locale must not change a value (lib/core/order.ts).
  const visitor = await (await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] }, locale: "da-DK" })).newPage();
  const uploads: string[] = [];
  visitor.on("request", (r) => {
    if (r.method() !== "GET") uploads.push(`${r.method()} ${r.url()}`);
  });
  await visitor.goto("/verify");
  await visitor.getByLabel(/public key/).fill(pem);
  await visitor.getByLabel("Evidence bundle").setInputFiles(file);
  const verdict = visitor.getByTestId("verification");
  const keyFile = path.join(path.dirname(file), "workbench.pem");
  writeFileSync(keyFile, pem);
  const cli = cliVerify(file, keyFile);
  expect(cli.ok).toBe(true);
  await expect(verdict.getByRole("heading", { level: 2 })).toContainText(`verified — ${cli.scores.length} values recomputed equal`, { timeout: 60_000 });
  for (const check of ["archive", "signature", "statement", "files", "completeness", "design", "plan", "readings", "scores", "stopping", "report"])
    await expect(verdict.locator(`li[data-ok="true"]`, { hasText: new RegExp(`^✓ ${check}:`) })).toBeVisible();
  await verdict.getByText(`${cli.scores.length} values recomputed equal`, { exact: true }).click();
  await verdict.getByLabel("Filter by path").fill(cli.scores[0].path);
  await expect(verdict.locator('li[data-equal="true"]').first()).toContainText(cli.scores[0].path);

  // The key as a browser shows /.well-known/fof-evidence-key (its JSON), pasted whole: the same verdict. Text that is no
  // key is named as such, not as a bundle that fails.
  // (copies under other names: choosing the same file again is no change for the file input)
  const again = (name: string) => {
    const copy = path.join(path.dirname(file), name);
    copyFileSync(file, copy);
    return copy;
  };
  await visitor.getByLabel(/public key/).fill(await (await page.request.get("/.well-known/fof-evidence-key")).text());
  await visitor.getByLabel("Evidence bundle").setInputFiles(again("audit-json-key.zip"));
  await expect(verdict).toContainText("audit-json-key.zip", { timeout: 30_000 });
  await expect(verdict.getByRole("heading", { level: 2 })).toContainText(`verified — ${cli.scores.length} values recomputed equal`, { timeout: 60_000 });
  await visitor.getByLabel(/public key/).fill("ssh-ed25519 AAAA… not-a-pem");
  await visitor.getByLabel("Evidence bundle").setInputFiles(again("audit-not-a-key.zip"));
  await expect(verdict.locator(`li[data-ok="false"]`)).toContainText(/key: the key is not a PEM public key/, { timeout: 30_000 });
  await visitor.getByLabel(/public key/).fill(pem);

  // One answer changed after signing.
  const e = unzipSync(readFileSync(file));
  e["outcomes.jsonl"] = Buffer.from(Buffer.from(e["outcomes.jsonl"]).toString("utf8").replace('"status":"answered"', '"status":"refused"'));
  const changed = path.join(path.dirname(file), "changed.zip");
  writeFileSync(changed, canonicalZip(Object.entries(e)));
  await visitor.getByLabel("Evidence bundle").setInputFiles(changed);
  await expect(verdict.getByRole("heading", { level: 2 })).toContainText("NOT verified", { timeout: 30_000 });
  await expect(verdict.locator(`li[data-ok="false"]`)).toContainText("outcomes.jsonl: changed");

  // An insider: a score edited, then the manifest and Statement redone and signed with the server's own key.
  const serverKey = createPrivateKey(readFileSync(path.join(process.env.E2E_DATA_DIR!, "evidence-signing-key.pem"), "utf8"));
  const insider = tampered(
    file,
    path.dirname(file),
    "insider",
    (x) => {
      x["scores.json"] = Buffer.from(
        Buffer.from(x["scores.json"])
          .toString("utf8")
          .replace(/"sE":0\.(\d)/, (_m, d) => `"sE":0.${(Number(d) + 1) % 10}`),
      );
    },
    serverKey,
  );
  const named = cliVerify(insider, keyFile).scores.filter((c) => !c.equal);
  expect(named.length).toBeGreaterThan(0);
  await visitor.getByLabel("Evidence bundle").setInputFiles(insider);
  await expect(verdict.getByRole("heading", { level: 2 })).toContainText("NOT verified", { timeout: 60_000 });
  await expect(verdict.locator(`li[data-ok="false"]`)).toContainText(`${named.length} of ${cli.scores.length} values do not follow from the data`);
  await expect(verdict.locator('li[data-equal="false"]')).toHaveCount(named.length);
  for (const n of named) await expect(verdict.locator('li[data-equal="false"]', { hasText: n.path })).toHaveCount(1);

  // An insider's other moves, each re-signed with the server's key: refused by the browser with the reason `fof verify`
  // gives — a prompt reworded (plan), a reading moved without its raw answer (readings), a truth of the built-in
  // content flipped under its digest (design: the content is not the one signed at launch).
  const edits: Record<string, (x: Record<string, Uint8Array>) => void> = {
    prompt: (x) => {
      const rows = Buffer.from(x["queries.jsonl"])
        .toString("utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { prompt: string });
      rows[2]!.prompt += " Most people in this role are men.";
      x["queries.jsonl"] = Buffer.from(rows.map((r) => JSON.stringify(r) + "\n").join(""));
    },
    reading: (x) => {
      const rows = Buffer.from(x["outcomes.jsonl"])
        .toString("utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { status: string; gender: string | null });
      const o = rows.find((r) => r.status === "answered" && r.gender === "female")!;
      o.gender = "male";
      x["outcomes.jsonl"] = Buffer.from(rows.map((r) => JSON.stringify(r) + "\n").join(""));
    },
    truth: (x) => {
      x["content.json"] = Buffer.from(Buffer.from(x["content.json"]).toString("utf8").replace('\\"highest\\":\\"male\\"', '\\"highest\\":\\"female\\"'));
    },
  };
  for (const [name, edit] of Object.entries(edits)) {
    const bad = tampered(file, path.dirname(file), `insider-${name}`, edit, serverKey);
    const refused = cliVerify(bad, keyFile).checks.find((c) => !c.ok)!;
    expect(refused.check, name).toBe({ prompt: "plan", reading: "readings", truth: "design" }[name]);
    await visitor.getByLabel("Evidence bundle").setInputFiles(bad);
    await expect(verdict.getByRole("heading", { level: 2 })).toContainText("NOT verified", { timeout: 60_000 });
    await expect(verdict.locator(`li[data-ok="false"]`)).toContainText(`${refused.check}: ${refused.detail.slice(0, 160)}`);
  }
  expect(uploads).toEqual([]);
  await visitor.context().close();
});

// `fof content validate|preview` from the command line: a valid folder prints its summary and exits 0; a broken copy
// exits 1 listing each issue as file:row field: message, and nothing else is written.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const FIXTURE = path.resolve("tests/fixtures/content/de-synthetic");
const fof = (...args: string[]) =>
  run(path.resolve("node_modules/.bin/tsx"), ["bin/fof.ts", ...args], {
    env: { ...process.env, FOF_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "fof-content-")) },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe("fof content", () => {
  it("validates a folder, and refuses a broken copy naming file, row and field", async () => {
    const ok = await fof("content", "validate", FIXTURE, "--preset", "quick", "--json");
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: "de-synthetic", language: "de", peoplePerQuestion: 6, statistics: 2, scenarios: 12 });
    const broken = mkdtempSync(path.join(os.tmpdir(), "fof-content-broken-"));
    cpSync(FIXTURE, broken, { recursive: true });
    const csv = path.join(broken, "statistics.csv");
    writeFileSync(csv, readFileSync(csv, "utf8").replace("35-64,65+,female,male", "35-64,65+,male,male"));
    const bad = await fof("content", "validate", broken);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain('statistics.csv:2 geschlecht_highest/geschlecht_lowest: highest and lowest are both "male": they must differ');
  }, 60_000);

  it("previews every prompt for a seed, the same on every call", async () => {
    const a = await fof("content", "preview", FIXTURE, "--seed", "3", "--json");
    const b = await fof("content", "preview", FIXTURE, "--seed", "3", "--json");
    expect(a.code).toBe(0);
    const lines = a.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { prompt: string });
    expect(lines).toHaveLength(42);
    expect(b.stdout).toBe(a.stdout);
  }, 60_000);

  it("plans a run on the set: queries, cost with a registered model, half-widths per attribute, and what ±0.05 needs", async () => {
    const r = await fof("content", "plan", FIXTURE, "--preset", "quick", "--model", "baseline:calibrated:0.8", "--json");
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      queries: { objective: number; subjective: number; total: number };
      cost: { usd: number | null };
      attributes: Array<{ attribute: string; k: number; halfWidth: Record<string, number>; meetsTarget: boolean }>;
    };
    // 3 objective questions × 2 levels × 20 repeats; 2 statistics × 2 levels × 3 scenarios × 3 contexts × 10
    expect(plan.queries).toEqual({ objective: 120, subjective: 360, total: 480 });
    expect(plan.cost.usd).toBe(0);
    expect(plan.attributes.map((a) => [a.attribute, a.k, a.meetsTarget])).toEqual([
      ["altersgruppe", 3, false],
      ["geschlecht", 2, false],
    ]);
    expect(r.stderr).toMatch(/warning: altersgruppe: this preset reaches ±0\.\d+ on its subjective scores/);
  }, 120_000);
});

import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { upperBound } from "../lib/metrics";

const run = promisify(execFile);
async function fofRun(args: string[]) {
  const env = { ...process.env, FOF_DATA_DIR: mkdtempSync(path.join(tmpdir(), "fof-run-")) };
  const { stdout } = await run("npm", ["run", "--silent", "fof", "--", "run", ...args], { env, maxBuffer: 10 * 1024 * 1024 });
  return { stdout, results: JSON.parse(stdout).results as Array<Record<string, number | string | null>> };
}

describe("fof run (built-in baselines, no key)", () => {
  it("prints scores deterministically for a fixed seed; the calibrated oracle lands on the curve", async () => {
    const args = ["--model", "baseline:calibrated:0.8", "--tests", "objective,subjective", "--preset", "quick", "--seed", "1"];
    const [a, b] = [await fofRun(args), await fofRun(args)];
    expect(a.stdout).toBe(b.stdout);
    const objective = a.results.filter((r) => r.test === "objective");
    expect(objective).toHaveLength(2);
    for (const r of objective) {
      expect(r.sFact as number).toBeGreaterThan(0.75);
      expect(r.sFact as number).toBeLessThan(0.85);
      const k = r.attribute === "gender" ? 2 : 4;
      expect(Math.abs((r.sE as number) - upperBound(k)(r.sFact as number))).toBeLessThan(0.08);
      expect(r.distance as number).toBeLessThan(0.05);
    }
    // Subjective answers aim at race: race S_fact ≈ a for every context.
    for (const r of a.results.filter((x) => x.test === "subjective" && x.attribute === "race")) expect(r.sFact as number).toBeGreaterThan(0.75);
    expect(a.results.filter((x) => x.test === "subjective")).toHaveLength(8);
  }, 120_000);

  it("uniform random answers have S_E ≈ 1", async () => {
    const { results } = await fofRun(["--model", "baseline:uniform", "--tests", "subjective", "--contexts", "baseline", "--preset", "quick", "--seed", "2"]);
    expect(results).toHaveLength(2);
    for (const r of results) expect(r.sE as number).toBeGreaterThan(0.93);
  }, 120_000);
});

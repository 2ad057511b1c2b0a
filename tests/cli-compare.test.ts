// `fof compare` and the release gate `fof run … --compare-to RUN --fail-if-worse METRICS`, through the real CLI.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const exec = promisify(execFile);
const env = { ...process.env, FOF_DATA_DIR: testDataDir("fof-cli-compare-") };
async function fof(args: string[]) {
  try {
    const { stdout, stderr } = await exec("npm", ["run", "--silent", "fof", "--", ...args], { env, maxBuffer: 10 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
const QUICK = ["--preset", "quick", "--contexts", "baseline"];
const runId = (stderr: string) => /run (\S+): \d+ queries planned/.exec(stderr)![1];

let first = "";
let second = "";

beforeAll(async () => {
  first = runId((await fof(["run", "--model", "baseline:uniform", ...QUICK, "--seed", "1"])).stderr);
  second = runId((await fof(["run", "--model", "baseline:uniform", ...QUICK, "--seed", "2"])).stderr);
}, 120_000);

describe("fof compare", () => {
  it("finds no score separable between two runs of uniform answers", async () => {
    const { code, stdout } = await fof(["compare", first, second, "--json"]);
    expect(code).toBe(0);
    const { comparisons } = JSON.parse(stdout) as { comparisons: Array<{ separable: boolean; metric: string; pAdjusted: number }> };
    expect(comparisons.length).toBe(20); // objective and baseline-context groups × 2 attributes × 5 scores
    expect(comparisons.filter((c) => c.separable)).toEqual([]);
    const text = await fof(["compare", first, second, "--target", "exact"]);
    expect(text.stdout).toMatch(/intervals about this exact benchmark/);
    expect(text.stdout).toMatch(/^0 separable \(\*\)\.$/m);
    expect((await fof(["compare", first, "no such"])).stderr).toMatch(/b: a run id, or <run id>:<model>/);
  });

  it("fails a release (exit 5) only on a score that got separably worse", async () => {
    const gate = await fof(["run", "--model", "baseline:calibrated:0.8", ...QUICK, "--seed", "3", "--compare-to", first, "--fail-if-worse", "sFact,sE"]);
    expect(gate.code).toBe(5);
    expect(gate.stderr).toMatch(/^WORSE {2}baseline:calibrated:0\.8 {2}B is worse on S_E \(S-B race\): lower by/m);
    expect(gate.stderr).toMatch(/^ok +baseline:calibrated:0\.8 {2}B is better on S_fact \(O race\): higher by/m);
    expect(gate.stderr).toMatch(/--fail-if-worse S_fact,S_E: worse than the reference/);
    const better = await fof(["run", "--model", "baseline:calibrated:0.8", ...QUICK, "--seed", "3", "--compare-to", first, "--fail-if-worse", "sFact"]);
    expect(better.code).toBe(0);
    expect((await fof(["run", "--model", "baseline:uniform", ...QUICK, "--compare-to", first])).stderr).toMatch(/go together/);
  });
});

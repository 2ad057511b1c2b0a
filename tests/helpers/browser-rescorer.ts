// The browser verifier's re-scorer exactly as /verify loads it (public/verifier/rescore.js, built by
// scripts/build-verifier.mjs), built into a folder of this test's own and run under Node in a process of its own
// (./browser-rescorer-child.mjs — in the test's process its look evaluators would replace the engine's, as they
// share a registry on globalThis): the same artifact, the same sql.js database, on the same bundles `fof verify`
// checks — so a test can compare the two value by value.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { ScoreCheck } from "../../lib/evidence/compare";

let built: string | null = null;

function build() {
  const out = mkdtempSync(path.join(os.tmpdir(), "fof-verifier-test-"));
  execFileSync(process.execPath, [path.resolve(__dirname, "../../scripts/build-verifier.mjs"), "--out", out], { stdio: "pipe" });
  return out;
}

type Rescored = {
  plan: { compared: number; planned: number; kept: string; problems: string[] };
  readings: { read: number; problems: string[] };
  scores: ScoreCheck[];
  explanations: ScoreCheck[] | null;
  stopping: { values: ScoreCheck[] } | null;
};

/** What the browser's re-scorer returns for a bundle, whole: the plan and readings checks, the scores, the looks. */
export async function browserRescoreResult(bundle: string): Promise<Rescored> {
  const dir = (built ??= build());
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, "browser-rescorer-child.mjs"), dir, bundle], {
    maxBuffer: 256 * 1024 ** 2,
  });
  return JSON.parse(stdout) as Rescored;
}

/** Every stated value of a bundle (scores, then an adaptive run's looks) with what the browser's re-scorer recomputed. */
export async function browserRescore(bundle: string): Promise<ScoreCheck[]> {
  const r = await browserRescoreResult(bundle);
  return [...r.scores, ...(r.stopping?.values ?? [])];
}

/** The two verifiers' lists side by side: path, recomputed value and verdict. */
export const comparable = (checks: ScoreCheck[]) => checks.map((c) => [c.path, c.recomputed, c.equal] as const);

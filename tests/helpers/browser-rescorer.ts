// The browser verifier's re-scorer exactly as /verify loads it (public/verifier/rescore.js, built by
// scripts/build-verifier.mjs), built into a folder of this test's own and run under Node: the same artifact, the
// same sql.js database, on the same bundles `fof verify` checks — so a test can compare the two value by value.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { unzipSync } from "fflate";
import type { ScoreCheck } from "../../lib/evidence/compare";

type Rescore = (entries: Record<string, Uint8Array>, opts: { wasmBinary: Uint8Array }) => Promise<ScoreCheck[]>;
let built: Promise<{ rescore: Rescore; wasm: Uint8Array }> | null = null;

function build() {
  const out = mkdtempSync(path.join(os.tmpdir(), "fof-verifier-test-"));
  execFileSync(process.execPath, [path.resolve(__dirname, "../../scripts/build-verifier.mjs"), "--out", out], { stdio: "pipe" });
  return import(pathToFileURL(path.join(out, "rescore.js")).href).then((m: { rescore: Rescore }) => ({
    rescore: m.rescore,
    wasm: readFileSync(path.join(out, "sql-wasm.wasm")),
  }));
}

/** Every stated value of a bundle with what the browser's re-scorer recomputed. */
export async function browserRescore(bundle: string): Promise<ScoreCheck[]> {
  const { rescore, wasm } = await (built ??= build());
  return rescore(unzipSync(readFileSync(bundle)), { wasmBinary: wasm });
}

/** The two verifiers' lists side by side: path, recomputed value and verdict. */
export const comparable = (checks: ScoreCheck[]) => checks.map((c) => [c.path, c.recomputed, c.equal] as const);

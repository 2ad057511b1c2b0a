// npm run bench:evidence — an evidence bundle of a paper-size run (FACT-OR-FAIR paper preset on the calibrated
// baseline: 45,828 queries) written by `fof bundle` and checked by `fof verify` in a fresh folder, then re-scored by
// the browser verifier's re-scorer (public/verifier/rescore.js, built fresh, run under Node's V8 — Chromium's engine —
// in a process of its own), each under GNU time: wall time, peak resident memory, and the bundle's size. Writes
// docs/BENCHMARKS.md.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { writeBenchSection } from "./bench-section";

const ROOT = path.join(__dirname, "..");
const CLI = path.join(ROOT, "bin/fof.ts");
const TSX = pathToFileURL(require.resolve("tsx")).href;
const PRESET = process.env.BENCH_EVIDENCE_PRESET ?? "paper";

function timed(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT, argv = ["--import", TSX, CLI]) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %M", process.execPath, ...argv, ...args], { env, cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  const last = r.stderr.trim().split("\n").pop() ?? "";
  const [seconds, kib] = last.split(" ").map(Number);
  if (r.status !== 0) throw new Error(`fof ${args.join(" ")} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return { seconds, mib: kib / 1024, stdout: r.stdout, stderr: r.stderr };
}

function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "fof-bench-evidence-"));
  const fresh = mkdtempSync(path.join(os.tmpdir(), "fof-bench-verify-"));
  const env = { ...process.env, FOF_DATA_DIR: dataDir };
  try {
    const run = timed(["run", "--model", "baseline:calibrated:0.8", "--preset", PRESET, "--seed", "1"], env);
    const id = /run (\w+): completed/.exec(run.stderr)?.[1];
    if (!id) throw new Error(`no run id in: ${run.stdout.slice(0, 400)}`);
    const zip = path.join(fresh, "audit.zip");
    const bundle = timed(["bundle", id, "-o", zip], env);
    const key = path.join(fresh, "workbench.pem");
    writeFileSync(key, timed(["evidence-key"], env).stdout);
    const verifyEnv = { ...process.env, FOF_DATA_DIR: undefined, DATABASE_URL: undefined };
    const verify = timed(["verify", zip, "--key", key, "--json"], verifyEnv, fresh);
    const report = JSON.parse(verify.stdout) as { ok: boolean; scores: unknown[]; checks: Array<{ check: string; detail: string }> };
    if (!report.ok) throw new Error(`the bundle did not verify: ${JSON.stringify(report.checks)}`);
    const completeness = report.checks.find((c) => c.check === "completeness")?.detail ?? "";
    const verifier = path.join(fresh, "verifier");
    timed(["--out", verifier], process.env, ROOT, [path.join(ROOT, "scripts/build-verifier.mjs")]);
    const browser = timed([verifier, zip], verifyEnv, fresh, [path.join(ROOT, "tests/helpers/browser-rescorer-child.mjs")]);
    const web = JSON.parse(browser.stdout) as { scores: Array<{ equal: boolean }> };
    if (web.scores.length !== report.scores.length || web.scores.some((s) => !s.equal)) throw new Error("the browser's re-scorer disagreed with fof verify");
    const size = statSync(zip).size;
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const section = [
      `## Evidence bundles (\`npm run bench:evidence\`) — ${new Date().toISOString().slice(0, 10)}`,
      "",
      `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, Node ${process.version}. A ${PRESET}-preset FACT-OR-FAIR run on \`baseline:calibrated:0.8\` (${completeness}); each command in its own process under GNU time (wall, peak resident set). \`fof verify\` ran in a fresh folder with no data directory; it checks the archive is canonical (directory against local headers, every entry inflated and deflated again), streams it twice (hashes, then rows into its scratch database), plans the run again from its signed content, configuration and seed and compares every query column for column, reads every raw answer again, checks the design signed at launch and its log proof, and recomputes every score (1,000 resamples).`,
      "",
      "| step | wall | peak RSS | notes |",
      "|---|---|---|---|",
      `| \`fof run\` (the run itself) | ${run.seconds.toFixed(1)} s | ${run.mib.toFixed(0)} MiB | |`,
      `| \`fof bundle\` | ${bundle.seconds.toFixed(1)} s | ${bundle.mib.toFixed(0)} MiB | ${(size / 1024 ** 2).toFixed(1)} MiB zip, written streamed (queries and outcomes 2,000 rows a page) |`,
      `| \`fof verify --key\` | ${verify.seconds.toFixed(1)} s | ${verify.mib.toFixed(0)} MiB | ${report.scores.length.toLocaleString("en-US")} values recomputed equal |`,
      `| browser re-scorer (/verify's step 6–7) | ${browser.seconds.toFixed(1)} s | ${browser.mib.toFixed(0)} MiB | the same ${web.scores.length.toLocaleString("en-US")} values equal; sql.js in memory, every file unpacked (a browser tab holds about this) |`,
      "",
    ].join("\n");
    writeBenchSection("## Evidence bundles", section);
    process.stdout.write(section);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(fresh, { recursive: true, force: true });
  }
}

main();

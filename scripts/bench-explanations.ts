// `npm run bench:explanations`: a reasoning run's explanation analysis at the paper's size (issue #67). One paper-preset
// chain-of-thought run of the planted-error test model (every subjective query explains its answer), a stratified
// sample for ±5 points read by two reviewers, the offline judge over every explanation; then what the Explanations
// page and API ask for, timed in-process with the peak memory each adds and the longest event-loop stall (why the
// server computes them on a read thread, lib/server/api/explanation-reads.ts): the results computed from the rows
// (first view), the same from the cache, one page of the explanations behind a number, the export streamed. Writes
// the section to docs/BENCHMARKS.md.
import { mkdtempSync } from "node:fs";
import { Worker } from "node:worker_threads";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { writeBenchSection } from "./bench-section";

process.env.FOF_DATA_DIR = mkdtempSync(path.join(tmpdir(), "fof-bench-explanations-"));
const MODEL = process.env.BENCH_MODEL ?? "baseline:explainer";
const HALF_WIDTH = Number(process.env.BENCH_HALF_WIDTH ?? 0.05);

const mib = (b: number) => b / 2 ** 20;
// The process's resident memory sampled every 5 ms by a thread of its own, which keeps sampling while the main
// thread is blocked (better-sqlite3 answers queries synchronously): [0] the peak since the last reset, [1] reset asked.
const cells = new Float64Array(new SharedArrayBuffer(16));
new Worker(
  `const c = new Float64Array(require("node:worker_threads").workerData);
   setInterval(() => { const r = process.memoryUsage.rss(); if (c[1] === 1) { c[0] = r; c[1] = 0; } else if (r > c[0]) c[0] = r; }, 5);`,
  { eval: true, workerData: cells.buffer },
).unref();

/** Runs `fn`, with its time, the peak resident memory it added, and the event loop's longest stall. */
async function measure<T>(fn: () => Promise<T>) {
  global.gc?.();
  cells[1] = 1;
  await new Promise((r) => setTimeout(r, 30));
  const rss0 = process.memoryUsage.rss();
  let stall = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 10);
    last = now;
  }, 10);
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  stall = Math.max(stall, performance.now() - last - 10);
  clearInterval(probe);
  await new Promise((r) => setTimeout(r, 10));
  return { value, ms, addedMiB: mib(Math.max(0, cells[0] - rss0)), stall: Math.max(0, stall) };
}

async function main() {
  const { db, migrateAndSeed } = await import("../lib/db");
  const engine = await import("../tests/helpers/services");
  const { createExplanationSample } = await import("../lib/features/explanations/sample");
  const { readSample } = await import("../tests/helpers/read-sample");
  const { startJudgePass, workJudgePassesUntilDone } = await import("../lib/features/explanations/judge-pass");
  const { explanationResults } = await import("../lib/features/explanations/results");
  const { explanationsBehind } = await import("../lib/features/explanations/behind");
  const { explanationExportRows } = await import("../lib/features/explanations/export");
  await migrateAndSeed({ quiet: true });
  const prisma = db();

  const t0 = performance.now();
  const run = await engine.createRun(prisma, { models: [MODEL], config: { ...engine.presetConfig("paper"), cot: true }, preset: "paper", seed: 1 });
  await new engine.Worker(prisma, { runId: run.id }).run({ untilDone: true });
  const runS = (performance.now() - t0) / 1000;
  process.stderr.write(`run: ${run.plannedCount} queries in ${runS.toFixed(0)} s\n`);

  const t1 = performance.now();
  const sample = await createExplanationSample(prisma, { name: "bench", runId: run.id, annotators: ["a@example.org", "b@example.org"], halfWidth: HALF_WIDTH });
  await readSample(prisma, sample.id, ["a@example.org", "b@example.org"], (who, p) => who === "b@example.org" && p.error === "attribution");
  const reviewS = (performance.now() - t1) / 1000;
  process.stderr.write(`review: ${sample.explanations} sampled, ${sample.items} readings in ${reviewS.toFixed(0)} s\n`);

  const t2 = performance.now();
  await startJudgePass(prisma, { id: "bench", role: "admin", spendingLimitUsd: null }, { runId: run.id, judge: "baseline:judge" });
  await workJudgePassesUntilDone(prisma);
  const judgeS = (performance.now() - t2) / 1000;
  const judged = await prisma.explanationJudgment.count({ where: { pass: { runId: run.id } } });
  process.stderr.write(`judge: ${judged} judgments in ${judgeS.toFixed(0)} s\n`);

  const rows: string[] = [];
  const row = (step: string, m: { ms: number; addedMiB: number; stall: number }, note = "") => {
    rows.push(`| ${step} | ${m.ms.toFixed(0)} ms | ${m.addedMiB.toFixed(0)} MiB | ${m.stall.toFixed(0)} ms | ${note} |`);
    process.stderr.write(`${step}: ${m.ms.toFixed(0)} ms, +${m.addedMiB.toFixed(0)} MiB, stall ${m.stall.toFixed(0)} ms\n`);
  };
  const first = await measure(() => explanationResults(prisma, run.id));
  row(
    "results, first view (every explanation's stratum, readings, judge corrected with its bootstrap)",
    first,
    `${first.value.explanations.toLocaleString("en-US")} explanations`,
  );
  row("results, cached (the same state of readings and judgments)", await measure(() => explanationResults(prisma, run.id)));
  const behind = await measure(() =>
    explanationsBehind(prisma, run.id, { model: MODEL, tag: "representativeness", source: "judge", offset: 40, pageSize: 20 }),
  );
  row("explanations behind a number (the judge's representativeness tags, third page of 20)", behind);
  let bytes = 0;
  const exported = await measure(async () => {
    for await (const chunk of explanationExportRows(prisma, run.id, "jsonl")) bytes += Buffer.byteLength(chunk);
    return bytes;
  });
  row("export, JSONL streamed (every reviewed or judged explanation)", exported, `${mib(bytes).toFixed(1)} MiB`);
  await prisma.$disconnect();

  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  writeBenchSection(
    "## Explanations (`npm run bench:explanations`)",
    [
      `## Explanations (\`npm run bench:explanations\`) — ${new Date().toISOString().slice(0, 10)}`,
      "",
      `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}. SQLite (WAL) in a temp dir.`,
      `Command: \`npm run bench:explanations\`. One paper-preset chain-of-thought run of \`${MODEL}\`: ${run.plannedCount.toLocaleString("en-US")} queries (run in ${runS.toFixed(0)} s), ${first.value.explanations.toLocaleString("en-US")} explanations; a sample for ±${HALF_WIDTH * 100} points of ${sample.explanations.toLocaleString("en-US")} explanations read by two reviewers (${sample.items.toLocaleString("en-US")} readings saved in ${reviewS.toFixed(0)} s); the offline judge over all of them (${judged.toLocaleString("en-US")} judgments in ${judgeS.toFixed(0)} s).`,
      "",
      "| step | time | peak memory added | longest event-loop stall | note |",
      "|---|---|---|---|---|",
      ...rows,
      "",
      "The server computes the results on a read thread (lib/server/api/explanation-reads.ts), so their stall above is the thread's, not the pages'; they are cached by the state they follow from (readings, gold, judgments, exclusions) — a new reading means a new first view. The export streams on the request's thread a page of 200 explanations at a time and yields the event loop between pages (its stall is one page's); the explanations behind a number are paged in SQL. Memory: the peak resident set above the step's start, sampled every 5 ms by a thread of its own (it includes garbage not yet collected and SQLite's page cache, which grows as a step reads rows it had not read).",
      "",
    ].join("\n"),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// `npm run bench:results`: the results pages' data on a paper-size run (45,828 queries → ~91k scored answers) of the
// uniform baseline: SQL aggregation vs scoring every record, per-statistic detail, Table 3 counts, one page of the
// answers behind a cell, and the bootstrap (first computation, with the event loop's worst stall, then the cache).
// Writes the results to docs/BENCHMARKS.md.
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";

process.env.FOF_DATA_DIR = mkdtempSync(path.join(tmpdir(), "fof-bench-results-"));

async function time<T>(label: string, rows: string[], fn: () => Promise<T>, note = ""): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  const ms = performance.now() - t0;
  rows.push(`| ${label} | ${ms.toFixed(0)} ms | ${note} |`);
  process.stderr.write(`${label}: ${ms.toFixed(0)} ms ${note}\n`);
  return out;
}

async function main() {
  const { db, migrateAndSeed } = await import("../lib/db");
  const engine = await import("../tests/helpers/services");
  const { scoreGroups } = await import("../lib/metrics");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const t0 = performance.now();
  const run = await engine.createRun(prisma, { models: ["baseline:uniform"], config: engine.presetConfig("paper"), preset: "paper", seed: 1 });
  await new engine.Worker(prisma, { runId: run.id }).run({ untilDone: true });
  const setupS = (performance.now() - t0) / 1000;
  const rows: string[] = [];
  const records = await time("scoring every record (runRecords + scoreGroups, the old path)", rows, async () =>
    scoreGroups(await engine.runRecords(prisma, run.id)),
  );
  const answers = (await engine.aggregatedRecords(prisma, run.id)).reduce((a, r) => a + (r.count ?? 1), 0);
  await time("scores aggregated in SQL (runScores)", rows, () => engine.runScores(prisma, run.id), `${records.length} groups`);
  const detailed = await time("per-statistic detail (runDetailed, breakdown page)", rows, () => engine.runDetailed(prisma, run.id));
  await time("context influence counts (Table 3)", rows, () => engine.runInfluenceCounts(prisma, run.id));
  const g = detailed.find((x) => x.context === "attribution" && x.attribute === "race")!;
  const c = g.cells[0];
  await time("one page of the answers behind a cell (25 of them)", rows, () =>
    engine.cellQueries(prisma, run.id, {
      model: g.model,
      test: g.test,
      context: g.context,
      attribute: g.attribute,
      statisticId: c.statisticId,
      level: c.level,
      answer: "Asian",
      page: 2,
      pageSize: 25,
    }),
  );
  // The bootstrap runs on the server's event loop: measure how long other requests could be kept waiting.
  let worst = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  await time("bootstrap intervals, first request (1,000 resamples, every group)", rows, () => engine.runIntervals(prisma, run.id));
  clearInterval(probe);
  rows.push(
    `| … worst event-loop stall while computing | ${worst.toFixed(0)} ms | the resampling yields every 15 ms; the longest step is the synchronous SQLite aggregation (see above) |`,
  );
  await time("bootstrap intervals, cached", rows, () => engine.runIntervals(prisma, run.id));
  await prisma.$disconnect();

  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const section = [
    `## Results (\`npm run bench:results\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    `Command: \`npm run bench:results\`. One paper-preset run of the uniform baseline: ${run.plannedCount.toLocaleString("en-US")} queries, ${answers.toLocaleString("en-US")} scored answers (a subjective answer scores gender and race), ${records.length} score groups; set up in ${setupS.toFixed(0)} s. SQLite (WAL) in a temp dir.`,
    "",
    "| step | time | note |",
    "|---|---|---|",
    ...rows,
    "",
    "Target: the results and breakdown pages' data for 50k+ answers in well under a second (aggregated in SQL, lists paginated); the bootstrap off the page's critical path (fetched after render, computed once per state of the data, cached).",
    "",
  ].join("\n");
  const file = "docs/BENCHMARKS.md";
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n\nPerformance targets are measured here, never in timed tests.\n\n";
  const withoutOld = existing.replace(/## Results \(`npm run bench:results`\)[\s\S]*?(?=\n## |$)/, "").trimEnd();
  writeFileSync(file, `${withoutOld}\n\n${section}`);
  process.stderr.write(`written to ${file}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

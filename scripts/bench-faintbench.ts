// `npm run bench:faintbench`: plans a paper-size FAIntbench run (2,654 prompts × 800 images = 2,123,200 rows for one
// model) the way a launch does — lazily, 500 rows a transaction — and reports planning time, rows per second, the
// process's peak RSS and the database's size, beside a run a tenth of its size (memory must not grow with the run);
// then the next lease of the labelling queue and a cursor page of the run's rows. Run, like `fof`, with V8's old
// space capped (package.json), so the peak is what the process needs rather than what V8 lets garbage grow to.
// Label throughput itself is bench:faces' (the browser pipeline). Writes the results to docs/BENCHMARKS.md.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";

const dataDir = mkdtempSync(path.join(tmpdir(), "fof-bench-faint-"));
process.env.FOF_DATA_DIR = dataDir;

async function main() {
  const { db, migrateAndSeed } = await import("../lib/db");
  const engine = await import("../tests/helpers/services");
  const { suiteOf } = await import("../lib/suites");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const suite = suiteOf("faintbench");
  const rssBefore = process.memoryUsage().rss;
  /** Plans one run of `imagesPerPrompt`, measuring time, peak RSS and the longest event-loop stall. */
  async function plan(imagesPerPrompt: number) {
    const config = { ...suite.presets.paper.config, imagesPerPrompt };
    let peak = process.memoryUsage().rss;
    const probe = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    // The event loop stays free between chunks: the longest gap is what another request could wait.
    let worst = 0;
    let last = performance.now();
    const loop = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last - 10);
      last = now;
    }, 10);
    const t0 = performance.now();
    const run = await engine.createRun(
      prisma,
      { suite: "faintbench", models: ["baseline:synthetic-faces"], config, preset: imagesPerPrompt === 800 ? "paper" : "custom", seed: 1 },
      { maxQueries: 3_000_000 },
    );
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(probe);
    clearInterval(loop);
    return { run, seconds, peak: Math.max(peak, process.memoryUsage().rss), worst };
  }
  const small = await plan(80);
  const { run, seconds, peak, worst } = await plan(800);
  const rows = await prisma.query.count({ where: { runId: run.id } });
  const dbFile = path.join(dataDir, "fof.db");
  const dbMiB = existsSync(dbFile) ? statSync(dbFile).size / 2 ** 20 : NaN;

  // Paging through it: the next lease of the labelling queue (no images are generated here: it finds none fast)
  // and the first page of the run's queries in id order.
  const t1 = performance.now();
  await engine.leaseImages(prisma, { runId: run.id, max: 16 });
  const leaseMs = performance.now() - t1;
  // Pages are cursors (the review and labelling queues never count an offset): the page after the millionth row.
  const mid = await prisma.query.findFirstOrThrow({ where: { runId: run.id, repeatIndex: 400 }, orderBy: { id: "asc" }, select: { id: true } });
  const t2 = performance.now();
  await prisma.query.findMany({ where: { runId: run.id, id: { gt: mid.id } }, orderBy: { id: "asc" }, take: 50 });
  const pageMs = performance.now() - t2;
  await prisma.$disconnect();

  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const section = [
    `## FAIntbench planning (\`npm run bench:faintbench\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    `Command: \`npm run bench:faintbench\`. The paper preset for one model (2,654 prompts × 800 images), planned through \`createRun\` as a launch does: lazily, 500 rows per transaction, yielding between chunks. SQLite (WAL) in a temp dir.`,
    "",
    "| measure | value |",
    "|---|---|",
    `| rows planned | ${rows.toLocaleString("en-US")} |`,
    `| planning time | ${seconds.toFixed(0)} s (${Math.round(rows / seconds).toLocaleString("en-US")} rows/s) |`,
    `| peak RSS of the process | ${mib(peak)} (${mib(rssBefore)} before planning; V8 old space capped at 192 MB, as \`fof\` runs) |`,
    `| the same for a run a tenth of the size (80 per prompt, ${small.run.plannedCount.toLocaleString("en-US")} rows) | ${small.seconds.toFixed(0)} s, peak RSS ${mib(small.peak)} |`,
    `| longest event-loop stall while planning | ${worst.toFixed(0)} ms |`,
    `| database after planning | ${dbMiB.toFixed(0)} MiB |`,
    `| next lease of the labelling queue | ${leaseMs.toFixed(0)} ms |`,
    `| a cursor page of 50 rows from the middle of the run | ${pageMs.toFixed(0)} ms |`,
    "",
    "Target: planning stays bounded in memory (O(chunk), not O(rows)) and never stalls the server; the queues page by index. Labelling throughput per image is bench:faces'.",
    "",
  ].join("\n");
  const file = "docs/BENCHMARKS.md";
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n\nPerformance targets are measured here, never in timed tests.\n\n";
  const withoutOld = existing.replace(/## FAIntbench planning \(`npm run bench:faintbench`\)[\s\S]*?(?=\n## |$)/, "").trimEnd();
  writeFileSync(file, `${withoutOld}\n\n${section}`);
  process.stderr.write(`${section}\nwritten to ${file}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

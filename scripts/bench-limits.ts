// `npm run bench:limits`: bounded work per request, measured. (1) A 458,280-query launch (10 models × the paper
// preset) planned while "other pages" keep querying the database every 50 ms: their latency p50/p99/max, the event
// loop's delay, planning time and peak RSS. (2) A 68-byte PNG declaring 60000 × 60000 pixels: time and memory to
// refuse it. (3) A 1 MB zip of zeros that inflates to 1 GiB, with honest and forged headers: time and memory to
// refuse it. Writes the results to docs/BENCHMARKS.md.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { crc32, deflateRawSync } from "node:zlib";
import { lyingPng, oneEntryZip } from "./fixtures/hostile";

process.env.FOF_DATA_DIR = mkdtempSync(path.join(tmpdir(), "fof-bench-limits-"));

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const mib = (b: number) => (b / 2 ** 20).toFixed(0);

async function main() {
  const { db, migrateAndSeed } = await import("../lib/db");
  const engine = await import("../tests/helpers/services");
  const images = await import("../lib/images");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const rows: string[] = [];

  // (1) a big launch while other requests keep coming
  const models = ["baseline:uniform", ...Array.from({ length: 9 }, (_, i) => `baseline:calibrated:0.${i + 1}`)];
  const latencies: number[] = [];
  let planning = true;
  // A request "arrives" every 50 ms; its latency runs from its arrival (so time spent waiting for the event loop
  // counts) to its answer.
  const other = (async () => {
    let arrival = performance.now();
    while (planning) {
      await new Promise((r) => setTimeout(r, Math.max(0, arrival - performance.now())));
      await prisma.run.findMany({ orderBy: { createdAt: "desc" }, take: 20, select: { id: true, name: true, status: true, plannedCount: true } });
      latencies.push(performance.now() - arrival);
      arrival += 50;
      if (arrival < performance.now()) arrival = performance.now();
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const t0 = performance.now();
  const run = await engine.createRun(prisma, { models, config: engine.presetConfig("paper"), preset: "paper", seed: 1 });
  const planS = (performance.now() - t0) / 1000;
  planning = false;
  await other;
  loop.disable();
  clearInterval(sampler);
  rows.push(
    `| launch of ${run.plannedCount.toLocaleString("en-US")} queries (10 models × paper) | planned in ${planS.toFixed(1)} s; peak RSS ${mib(peak)} MiB | other requests during planning (a runs-list query arriving every 50 ms, latency from arrival, n = ${latencies.length}): p50 ${pct(latencies, 0.5).toFixed(1)} ms, p99 ${pct(latencies, 0.99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms |`,
  );
  process.stderr.write(`${rows.at(-1)}\n`);
  await expectRefused(
    () => engine.createRun(prisma, { models: [...models, "baseline:oracle"], config: engine.presetConfig("paper"), preset: "paper", seed: 1 }),
    rows,
    "launch of 504,108 queries (11 models × paper), over the 500,000 cap",
  );

  // (2) a decompression bomb's header
  const bomb = lyingPng();
  const rss0 = process.memoryUsage().rss;
  const t1 = performance.now();
  let message = "";
  try {
    await images.validateImageAsync(bomb);
  } catch (e) {
    message = (e as Error).message;
  }
  rows.push(
    `| 68-byte PNG declaring 60000 × 60000 | refused in ${(performance.now() - t1).toFixed(2)} ms, +${mib(Math.max(0, process.memoryUsage().rss - rss0))} MiB RSS | "${message}" |`,
  );

  // (3) zip bombs
  const zeros = Buffer.alloc(2 ** 30);
  const deflated = deflateRawSync(zeros, { level: 9 });
  const crc = crc32(zeros);
  for (const [label, declared] of [
    ["honest header (1 GiB)", 2 ** 30],
    ["forged header (100 bytes)", 100],
  ] as const) {
    const zip = oneEntryZip("objective/crime-rate/highest/zeros.png", deflated, crc, declared);
    const before = process.memoryUsage().rss;
    let top = before;
    const s = setInterval(() => (top = Math.max(top, process.memoryUsage().rss)), 5);
    const t2 = performance.now();
    const plan = images.expandArchives([{ name: "bomb.zip", bytes: zip }]);
    clearInterval(s);
    top = Math.max(top, process.memoryUsage().rss);
    rows.push(
      `| ${mib(zip.length)} MB zip of zeros → 1 GiB, ${label} | refused in ${(performance.now() - t2).toFixed(0)} ms, +${mib(Math.max(0, top - before))} MiB RSS | "${plan.problems[0]?.message ?? "NOT REFUSED"}" |`,
    );
  }
  await prisma.$disconnect();

  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const section = [
    `## Limits (\`npm run bench:limits\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}. Command: \`npm run bench:limits\`. SQLite (WAL) in a temp dir.`,
    "",
    "| work | cost | notes |",
    "|---|---|---|",
    ...rows,
    "",
    "Targets: other pages p99 < 500 ms while a 500k-query launch plans; a PNG declaring 60000 × 60000 refused in < 50 ms with < 10 MB extra memory; a 1 MB zip of zeros refused without inflating 1 GB.",
    "",
  ].join("\n");
  const file = "docs/BENCHMARKS.md";
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n\nPerformance targets are measured here, never in timed tests.\n\n";
  const withoutOld = existing.replace(/## Limits \(`npm run bench:limits`\)[\s\S]*?(?=\n## |$)/, "").trimEnd();
  writeFileSync(file, `${withoutOld}\n\n${section}`);
  process.stderr.write(`written to ${file}\n`);
}

async function expectRefused(fn: () => Promise<unknown>, rows: string[], label: string) {
  const t0 = performance.now();
  try {
    await fn();
    rows.push(`| ${label} | NOT REFUSED | |`);
  } catch (e) {
    rows.push(`| ${label} | refused in ${(performance.now() - t0).toFixed(0)} ms, before planning | "${(e as Error).message}" |`);
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

// `npm run bench:engine`: a paper-size run (45,828 queries) for one model against the provider emulator, at 0 ms
// and at a fixed latency, through the real openai SDK. Writes the results to docs/BENCHMARKS.md.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const PORT = Number(process.env.BENCH_EMULATOR_PORT ?? 3399);
process.env.FOF_DATA_DIR = mkdtempSync(path.join(tmpdir(), "fof-bench-"));

async function main() {
  const scripts = path.join(process.env.FOF_DATA_DIR!, "scripts.json");
  writeFileSync(scripts, JSON.stringify({ "bench-0ms": {}, "bench-latency": { latencyMs: LATENCY_MS } }));
  // The emulator runs in its own process, as a real provider would.
  const emulator = spawn(process.execPath, ["--import", "tsx", "tests/emulator/cli.ts", String(PORT), scripts], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => emulator.stdout!.once("data", () => resolve()));

  const { db, migrateAndSeed } = await import("../lib/db");
  const { createRun, presetConfig, upsertModel, Worker } = await import("../lib/engine");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const base = `http://127.0.0.1:${PORT}/v1`;
  const results: string[] = [];

  for (const [slug, latency] of [["bench-0ms", 0], ["bench-latency", LATENCY_MS]] as const) {
    await upsertModel(prisma, { slug, label: slug, provider: "openai-compatible", modelId: slug, baseUrl: base, concurrency: CONCURRENCY });
    const t0 = performance.now();
    const run = await createRun(prisma, { models: [slug], config: presetConfig("paper"), preset: "paper", seed: 1 });
    const tPlan = performance.now();
    await new Worker(prisma, { runId: run.id }).run({ untilDone: true });
    const t1 = performance.now();
    const outcomes = await prisma.outcome.count({ where: { query: { runId: run.id } } });
    const answered = await prisma.outcome.count({ where: { query: { runId: run.id }, status: "answered" } });
    const work = (t1 - tPlan) / 1000;
    const total = (t1 - t0) / 1000;
    const throughput = outcomes / work;
    const bound = latency > 0 ? CONCURRENCY / (latency / 1000) : null;
    const line = `| ${latency} ms | ${CONCURRENCY} | ${run.plannedCount.toLocaleString("en-US")} | ${outcomes.toLocaleString("en-US")} (${answered.toLocaleString("en-US")} answered) | ${((tPlan - t0) / 1000).toFixed(1)} s | ${work.toFixed(1)} s | ${total.toFixed(1)} s | ${throughput.toFixed(0)} q/s | ${bound ? `${bound.toFixed(0)} q/s → ${(throughput / bound).toFixed(2)} × C/L` : "–"} | ${(throughput * 2).toFixed(0)} rows/s |`;
    results.push(line);
    process.stderr.write(line + "\n");
  }
  emulator.kill("SIGTERM");
  await prisma.$disconnect();
  const rssMb = (process.resourceUsage().maxRSS / 1024).toFixed(0);

  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const section = [
    `## Engine (\`npm run bench:engine\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    `Command: \`npm run bench:engine\` (BENCH_LATENCY_MS=${LATENCY_MS}, BENCH_CONCURRENCY=${CONCURRENCY}). One model, paper preset (45,828 queries), emulator in its own process, real \`openai\` SDK over loopback HTTP, SQLite (WAL) in a temp dir.`,
    "",
    "| latency | concurrency | planned | outcomes written | planning | working | total | throughput | vs C/L bound | SQLite rows/s (outcome + status) |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...results,
    "",
    `Peak RSS of the benchmark process (planner + worker): ${rssMb} MiB. Targets: ≥ 0.9 × C/L with latency; 45,828 queries fully persisted in ≤ 60 s at 0 ms.`,
    "",
  ].join("\n");
  const file = "docs/BENCHMARKS.md";
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n\nPerformance targets are measured here, never in timed tests.\n\n";
  const withoutOld = existing.replace(/## Engine \(`npm run bench:engine`\)[\s\S]*?(?=\n## |$)/, "").trimEnd();
  writeFileSync(file, `${withoutOld}\n\n${section}`);
  process.stderr.write(`written to ${file}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

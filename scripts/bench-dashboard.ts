// `npm run bench:dashboard`: the live run page under watchers. A paper-size LLM run (45,828 queries) works for
// BENCH_SECONDS (60) at BENCH_LATENCY_MS (200) with concurrency BENCH_CONCURRENCY (64) against the provider emulator (its own process),
// in this process — as `npm start` runs its worker beside the HTTP handlers — while BENCH_POLLERS (20) clients read
// the run's summary every second, as the run page does. Twice: each poll computing its own summary (how the route
// worked before), then through the route's shared computation (lib/core/shared.ts). Reports poll latency p50/p99 and
// the run's throughput against the C/L bound, and writes them to docs/BENCHMARKS.md.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";

process.env.FOF_ALLOWED_ENDPOINTS ??= "127.0.0.1,::1,localhost";
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const POLLERS = Number(process.env.BENCH_POLLERS ?? 20);
const PORT = Number(process.env.BENCH_EMULATOR_PORT ?? 3398);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const dataDir = mkdtempSync(path.join(tmpdir(), "fof-bench-dash-"));

interface CaseResult {
  label: string;
  planned: number;
  seconds: number;
  qps: number;
  polls: number;
  p50: number;
  p99: number;
  max: number;
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const { runSummaryOff } = await import("../lib/server/api/run-reads");
  const scripts = path.join(dataDir, "scripts.json");
  writeFileSync(scripts, JSON.stringify({ "bench-latency": { latencyMs: LATENCY_MS } }));
  const emulator = spawn(process.execPath, ["--import", "tsx", "tests/emulator/cli.ts", String(PORT), scripts], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => emulator.stdout!.once("data", () => resolve()));
  process.env.FOF_DATA_DIR = dataDir;
  const { db, migrateAndSeed } = await import("../lib/db");
  const engine = await import("../tests/helpers/services");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  await engine.upsertModel(prisma, {
    slug: "bench-latency",
    label: "bench-latency",
    provider: "openai-compatible",
    modelId: "bench-latency",
    baseUrl: `http://127.0.0.1:${PORT}/v1`,
    concurrency: CONCURRENCY,
  });

  const results: CaseResult[] = [];
  let seed = 1;
  for (const [label, read, pollers] of [
    ["nobody watching (the engine alone)", (id: string) => engine.runSummary(prisma, id), 0],
    [`${POLLERS} pollers, each computing its summary`, (id: string) => engine.runSummary(prisma, id), POLLERS],
    [`${POLLERS} pollers sharing one computation on a read thread (the route)`, (id: string) => runSummaryOff(id, {}, null), POLLERS],
  ] as const) {
    const run = await engine.createRun(prisma, { models: ["bench-latency"], config: engine.presetConfig("paper"), preset: "paper", seed: seed++ });
    const t0 = performance.now();
    const worker = new engine.Worker(prisma, { runId: run.id });
    let done = false;
    const working = worker.run({ untilDone: true }).then(() => {
      done = true;
    });
    // A window of steady work (BENCH_SECONDS), then the run is stopped: its throughput is what the window saw.
    const window = setTimeout(() => worker.stop(), SECONDS * 1000);
    const latencies: number[] = [];
    const poller = async (i: number) => {
      await sleep((i * 1000) / pollers); // spread over the second, as independent browsers are
      while (!done) {
        const s = performance.now();
        await read(run.id);
        const ms = performance.now() - s;
        latencies.push(ms);
        await sleep(Math.max(0, 1000 - ms));
      }
    };
    await Promise.all([working, ...Array.from({ length: pollers }, (_, i) => poller(i))]);
    clearTimeout(window);
    const seconds = (performance.now() - t0) / 1000;
    const answered = await prisma.outcome.count({ where: { query: { runId: run.id } } });
    await engine.setRunState(prisma, run.id, "cancel").catch(() => undefined);
    const r: CaseResult = {
      label,
      planned: answered,
      seconds,
      qps: answered / seconds,
      polls: latencies.length,
      p50: pct(latencies, 0.5),
      p99: pct(latencies, 0.99),
      max: latencies.length ? Math.max(...latencies) : 0,
    };
    results.push(r);
    process.stderr.write(`${JSON.stringify(r)}\n`);
  }
  emulator.kill("SIGTERM");
  await prisma.$disconnect();

  const bound = CONCURRENCY / (LATENCY_MS / 1000);
  const row = (r: CaseResult) =>
    `| ${r.label} | ${r.planned.toLocaleString("en-US")} | ${r.seconds.toFixed(1)} s | ${r.qps.toFixed(0)} q/s | ${(r.qps / bound).toFixed(3)} × C/L | ${r.polls.toLocaleString("en-US")} | ${r.polls ? `${r.p50.toFixed(0)} ms | ${r.p99.toFixed(0)} ms | ${r.max.toFixed(0)} ms` : "– | – | –"} |`;
  const section = [
    "## Live run page (`npm run bench:dashboard`)",
    "",
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench:dashboard\` (BENCH_LATENCY_MS=${LATENCY_MS}, BENCH_CONCURRENCY=${CONCURRENCY}, BENCH_POLLERS=${POLLERS}, BENCH_SECONDS=${SECONDS}: a window of the paper run's ${(45828).toLocaleString("en-US")} queries, then it is cancelled). SQLite (WAL) in a temp dir; the worker in the same process as the readers (\`npm start\`'s layout until 2026-11-28; now \`FOF_WORKER=inline\`); each reader reads the run's summary (progress, spend, throughput, workers, running scores) once a second.`,
    "",
    `| case | queries answered in the window | window | throughput | vs C/L bound (${bound.toFixed(0)} q/s) | polls | poll p50 | poll p99 | poll max |`,
    "|---|---|---|---|---|---|---|---|---|",
    ...results.map(row),
    "",
    `Targets (issue #22): with ${POLLERS} pollers, p99 < 300 ms and ≥ 0.9 × C/L. Reading: the summary's running scores aggregate every answer so far (one GROUP BY over the run), and each poll used to repeat that and the progress counts; the route now shares one computation among readers of the same run and options for up to 2 s (lib/core/shared.ts; the page polls every second and moves every 2), and a live run's scores are recomputed at most every 5 s. Steering a run forgets what is shared for it, so a pause shows at once.`,
    "",
  ].join("\n");
  const file = "docs/BENCHMARKS.md";
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n\nPerformance targets are measured here, never in timed tests.\n\n";
  const withoutOld = existing.replace(/## Live run page \(`npm run bench:dashboard`\)[\s\S]*?(?=\n## |$)/, "").trimEnd();
  writeFileSync(file, `${withoutOld}\n\n${section}`);
  process.stderr.write(`written to ${file}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

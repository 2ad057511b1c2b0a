// `npm run bench:engine`: whole `fof run` processes — planning, working and scoring, as a user runs them — against the
// provider emulator in its own process, through the chat provider's HTTP client, on SQLite (WAL) in a temp dir:
//   1. one model, paper preset (45,828 queries), 0 ms latency: raw engine throughput;
//   2. the same at BENCH_LATENCY_MS (200) with concurrency BENCH_CONCURRENCY (64): against the C/L bound;
//   3. BENCH_MODELS (10) models × paper preset (458,280 queries), 0 ms: memory stays bounded (skip with BENCH_MODELS=0).
// Each reports SQL statements per query (counted in the driver adapter, FOF_SQL_STATS) and the process's peak RSS.
// Writes the results to docs/BENCHMARKS.md.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";

// The provider emulator listens on loopback: allowed the way an operator allows a local endpoint (lib/providers/outbound.ts).
process.env.FOF_ALLOWED_ENDPOINTS ??= "127.0.0.1,::1,localhost";

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const MANY = Number(process.env.BENCH_MODELS ?? 10);
const PORT = Number(process.env.BENCH_EMULATOR_PORT ?? 3399);
const HEAP_MB = Number(process.env.FOF_HEAP_MB ?? 192);
const dataDir = mkdtempSync(path.join(tmpdir(), "fof-bench-"));

interface Outcome {
  label: string;
  latency: number;
  models: number;
  planned: number;
  wall: number;
  planning: number;
  statements: number;
  rssMiB: number;
  /** the process's user + system CPU, planning and scoring included */
  cpuMs: number;
  status: string;
}

function fofRun(models: string[], seed: number, label: string, latency: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let planned = 0;
    let tPlanned = 0;
    let stats: { sqlStats: { statements: number }; maxRssMiB: number; cpuMs: number } | null = null;
    let status = "?";
    let err = "";
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, "dist/fof.mjs", "run", "--model", ...models, "--preset", "paper", "--seed", String(seed)],
      {
        env: { ...process.env, FOF_DATA_DIR: dataDir, FOF_SQL_STATS: "1" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      err += d;
      for (const line of d.split("\n")) {
        const p = /: (\d+) queries planned/.exec(line);
        if (p) {
          planned = Number(p[1]);
          tPlanned = performance.now();
        }
        const s = /^run \S+: (\w+)/.exec(line);
        if (s && !p) status = s[1];
        if (line.startsWith('{"sqlStats"')) stats = JSON.parse(line);
      }
      if (err.length > 100_000) err = err.slice(-20_000);
    });
    child.once("exit", (code) => {
      const t1 = performance.now();
      if (code !== 0 || !stats) return reject(new Error(`fof run exited ${code}: ${err.slice(-2000)}`));
      const s = stats as { sqlStats: { statements: number }; maxRssMiB: number; cpuMs: number };
      resolve({
        label,
        latency,
        models: models.length,
        planned,
        wall: (t1 - t0) / 1000,
        planning: (tPlanned - t0) / 1000,
        statements: s.sqlStats.statements,
        rssMiB: s.maxRssMiB,
        cpuMs: s.cpuMs,
        status,
      });
    });
  });
}

async function main() {
  // The CLI as deployed (`npm run build` bundles it; the worker unit runs it): built fresh from this checkout.
  execFileSync("npm", ["run", "--silent", "build:cli"], { stdio: "inherit" });
  const many = Array.from({ length: MANY }, (_, i) => `bench-m${i + 1}`);
  const scripts = path.join(dataDir, "scripts.json");
  writeFileSync(scripts, JSON.stringify({ "bench-0ms": {}, "bench-latency": { latencyMs: LATENCY_MS }, ...Object.fromEntries(many.map((m) => [m, {}])) }));
  const emulator = spawn(process.execPath, ["--import", "tsx", "tests/emulator/cli.ts", String(PORT), scripts], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => emulator.stdout!.once("data", () => resolve()));
  process.env.FOF_DATA_DIR = dataDir;
  const { db, migrateAndSeed } = await import("../lib/db");
  const { upsertModel } = await import("../tests/helpers/services");
  await migrateAndSeed({ quiet: true });
  const base = `http://127.0.0.1:${PORT}/v1`;
  for (const slug of ["bench-0ms", "bench-latency", ...many])
    await upsertModel(db(), { slug, label: slug, provider: "openai-compatible", modelId: slug, baseUrl: base, concurrency: CONCURRENCY });
  await db().$disconnect();

  const results: Outcome[] = [];
  const cases: Array<[string[], string, number]> = [
    [["bench-0ms"], "1 model, 0 ms", 0],
    [["bench-latency"], `1 model, ${LATENCY_MS} ms`, LATENCY_MS],
    ...(MANY > 0 ? [[many, `${MANY} models, 0 ms`, 0] as [string[], string, number]] : []),
  ];
  let seed = 1;
  for (const [models, label, latency] of cases) {
    const r = await fofRun(models, seed++, label, latency);
    results.push(r);
    process.stderr.write(`${JSON.stringify(r)}\n`);
  }
  emulator.kill("SIGTERM");

  const row = (r: Outcome) => {
    const bound = r.latency > 0 ? (CONCURRENCY * r.models) / (r.latency / 1000) : null;
    const e2e = r.planned / r.wall;
    // Three decimals: a target of 0.95 must not be met by rounding.
    const vs = bound ? `${(e2e / bound).toFixed(3)} × C/L end to end` : "–";
    return `| ${r.label} | ${r.planned.toLocaleString("en-US")} | ${r.status} | ${r.planning.toFixed(1)} s | ${r.wall.toFixed(1)} s | ${e2e.toFixed(0)} q/s | ${vs} | ${(r.statements / r.planned).toFixed(3)} (${r.statements.toLocaleString("en-US")}) | ${(r.cpuMs / r.planned).toFixed(2)} ms | ${r.rssMiB} MiB |`;
  };
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const section = [
    `## Engine (\`npm run bench:engine\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    `Command: \`npm run bench:engine\` (BENCH_LATENCY_MS=${LATENCY_MS}, BENCH_CONCURRENCY=${CONCURRENCY}, BENCH_MODELS=${MANY}). Each row is one whole \`fof run --preset paper\` process, run as deployed: \`node --max-old-space-size=${HEAP_MB} dist/fof.mjs\` (the CLI bundled by \`npm run build:cli\`, as deploy/systemd/fof-worker@.service runs it): planning, working, scoring and printing; the emulator runs in its own process, called by the OpenAI-compatible chat provider (lib/providers/openai.ts: the chat completions API over node:http, keep-alive) over loopback, SQLite (WAL) in a temp dir. SQL statements are counted in the driver adapter (every statement, BEGIN and COMMIT included; planning and scoring included).`,
    "",
    "| case | queries | status | planning (calls start at once) | whole process | end-to-end | vs C/L bound | SQL statements / query | CPU / query (whole process) | peak RSS |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...results.map(row),
    "",
    "Targets (issue #14): ≥ 0.95 × C/L at 200 ms / C = 64; ≥ 1,000 q/s at 0 ms; ≤ 0.3 SQL statements per query; peak RSS < 300 MB for one paper-size run and for 10 models × the paper preset; issue #37 item 9: ≤ 1.2 ms of CPU per query (at 200 ms; the whole process, so planning, scoring and start-up are in it) and ≥ 0.95 × C/L on this machine.",
    "",
    `Reading: \`fof run\` starts its worker as soon as the run exists, and it calls the rows while the rest are written (the planning column is when the last row was in), so planning no longer delays the provider. Claims are one UPDATE … RETURNING per batch, results one transaction per 250 ms, bulk inserts one JSON parameter per 1,000 rows (Prisma's query compiler costs per bound value). Per call the chat provider sends the chat completions request itself over node:http with keep-alive (lib/providers/openai.ts, http-fetch.ts): ≈ 0.25 ms of client CPU a call, against ≈ 0.6 ms through the openai SDK over the same agents (5,000 calls each against the emulator, side by side, 2026-11-28; the SDK on Node's built-in fetch had cost twice the SDK on these agents). At 0 ms the 2 cores are shared by the emulator and the worker. V8 flags: the CLI raises --wasm-tiering-budget tenfold (bin/fof.ts), so Prisma's query compiler (WebAssembly) is not recompiled function by function in the first second; with it and planning chunks that grow from 64 rows (the first calls' connections no longer wait behind a 500-row step), 2026-11-28 side by side with the day's earlier figures: 1.14 → 1.06 ms of CPU per query at 200 ms, 0.949 → 0.960 × C/L, 10 models at 0 ms 1,356 → 1,521 q/s. Memory: V8's old space is capped (FOF_HEAP_MB, 192) — the live set after planning 45,828 rows is ≈ 75 MB, the rest was garbage V8 had not yet collected (≈ 1 GiB uncapped).`,
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

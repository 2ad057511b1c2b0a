// `npm run bench:pages`: the pages people open, timed through HTTP against the production build while a paper-size
// run is in flight (issue #37 item 4). Seeds finished runs of each suite, starts the server as `npm start` does (the
// web process and a `fof worker` process beside it; BENCH_WORKER=inline: the worker in the web process), launches the paper preset through POST /api/v1/runs (timed: it must answer at once),
// then for BENCH_SECONDS (60) has BENCH_POLLERS (20) clients poll the run's live summary every second while one
// reader walks the pages in turn. Reports each page's response time p50/p99 (the whole body read, on loopback), the
// run's throughput against C/L, how long the Results page's intervals take after the page, and writes the section
// to docs/BENCHMARKS.md. Needs `npm run build` first.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { CLIENT_SECRET_ENV } from "../lib/auth/client-address";
import { writeBenchSection } from "./bench-section";

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const POLLERS = Number(process.env.BENCH_POLLERS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const EMULATOR_PORT = Number(process.env.BENCH_EMULATOR_PORT ?? 3397);
const PORT = Number(process.env.BENCH_PORT ?? 3396);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: "bench@example.org", password: "bench-password-long" };
const SHARED_MODELS = path.resolve("../shared/models");
const dataDir = mkdtempSync(path.join(tmpdir(), "fof-bench-pages-"));
const allowed = "127.0.0.1,::1,localhost";
const SEPARATE_WORKER = process.env.BENCH_WORKER !== "inline";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

/** Finished runs of every suite, so each page has something to show (in this process, before the server starts). */
async function seed() {
  process.env.FOF_DATA_DIR = dataDir;
  process.env.FOF_ALLOWED_ENDPOINTS = allowed;
  const { db, migrateAndSeed } = await import("../lib/db");
  const engine = await import("../tests/helpers/services");
  const { createUser } = await import("../lib/auth/users");
  const { createToken } = await import("../lib/auth/tokens");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const admin = await createUser(prisma, { ...ADMIN, name: "Bench", role: "admin" });
  const token = (await createToken(prisma, admin.id, { name: "bench" })).secret;
  await engine.upsertModel(prisma, {
    slug: "bench-latency",
    label: "bench-latency",
    provider: "openai-compatible",
    modelId: "bench-latency",
    baseUrl: `http://127.0.0.1:${EMULATOR_PORT}/v1`,
    concurrency: CONCURRENCY,
  });
  const finish = async (run: { id: string }) => new engine.Worker(prisma, { runId: run.id, pollMs: 5, flushMs: 20 }).run({ untilDone: true });
  const quick = await engine.createRun(prisma, {
    models: ["baseline:calibrated:0.8", "baseline:uniform"],
    config: engine.presetConfig("quick"),
    preset: "quick",
    seed: 7,
  });
  await finish(quick);
  const dofair = await engine.createRun(prisma, {
    suite: "dofair",
    models: ["baseline:synthetic-faces"],
    config: { dimensions: ["race", "gender"], methods: ["baseline", "bianchi"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 8 },
    preset: "custom",
    seed: 8,
  });
  await finish(dofair);
  const { suiteOf } = await import("../lib/suites");
  const faint = await engine.createRun(prisma, {
    suite: "faintbench",
    models: ["baseline:synthetic-faces"],
    config: suiteOf("faintbench").presets.smoke.config,
    preset: "smoke",
    seed: 9,
  });
  await finish(faint);
  // The DoFaiR run's faces labelled by the stand-in classifier, so Review has a queue.
  if (existsSync(path.join(SHARED_MODELS, "fairface-standin-single18.onnx"))) {
    const { createNodeLabeller, modelFile } = await import("../lib/faces/node-labeller");
    const { labelQueue } = await import("../lib/features/labelling/queue");
    const labeller = await createNodeLabeller({
      detector: modelFile(path.join(SHARED_MODELS, "ultraface-version-RFB-320.onnx")),
      classifier: modelFile(path.join(SHARED_MODELS, "fairface-standin-single18.onnx")),
      threads: 1,
    });
    await labelQueue(prisma, engine, labeller, { dataDir, runId: dofair.id, batch: 8 });
  }
  await prisma.$disconnect();
  return { token, quick: quick.id, dofair: dofair.id, faint: faint.id };
}

async function startServer(): Promise<ChildProcess> {
  // The serving process itself, as `npm start` spawns it (the database is migrated and seeded already). With
  // BENCH_PROFILE_DIR it writes a CPU profile there when it stops: what dominates, measured rather than guessed.
  const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const server = spawn(process.execPath, [...profile, "--import", "tsx", "scripts/serve.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      [CLIENT_SECRET_ENV]: randomBytes(24).toString("base64url"),
      PORT: String(PORT),
      HOST: "127.0.0.1",
      FOF_DATA_DIR: dataDir,
      FOF_ALLOWED_ENDPOINTS: allowed,
      FOF_LOG_LEVEL: "warn",
      // As `npm start` runs it: the web process serves pages only, a `fof worker` process runs the run (scripts/start.ts).
      // BENCH_WORKER=inline: one process, the worker beside the handlers (FOF_WORKER=inline).
      FOF_WORKER: SEPARATE_WORKER ? "off" : "inline",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`${BASE}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return server;
    await sleep(500);
  }
  throw new Error("the server did not start");
}

/** `fof worker` in its own process, as `npm start` and a team deployment run it: the bundled CLI. */
function startWorker(): ChildProcess | null {
  if (!SEPARATE_WORKER) return null;
  return spawn(process.execPath, ["dist/fof.mjs", "worker"], {
    env: { ...process.env, FOF_DATA_DIR: dataDir, FOF_ALLOWED_ENDPOINTS: allowed, FOF_LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function main() {
  if (!existsSync(".next/BUILD_ID") || !existsSync("dist/fof.mjs")) throw new Error("no production build: run `npm run build` first");
  const scripts = path.join(dataDir, "scripts.json");
  writeFileSync(scripts, JSON.stringify({ "bench-latency": { latencyMs: LATENCY_MS } }));
  const emulator = spawn(process.execPath, ["--import", "tsx", "tests/emulator/cli.ts", String(EMULATOR_PORT), scripts], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => emulator.stdout!.once("data", () => resolve()));
  const t = performance.now();
  const ids = await seed();
  process.stderr.write(`seeded in ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
  const server = await startServer();
  const worker = startWorker();
  try {
    const signIn = await fetch(`${BASE}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE },
      body: JSON.stringify(ADMIN),
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    if (!signIn.ok || !cookie) throw new Error(`sign-in failed: HTTP ${signIn.status}`);
    const timed = async (url: string, init: RequestInit = {}) => {
      const s = performance.now();
      const res = await fetch(`${BASE}${url}`, { ...init, headers: { cookie, ...(init.headers ?? {}) } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return performance.now() - s;
    };
    // Warm every page once (the first render of a route loads its code).
    const pages: Array<[string, string]> = [
      ["Runs", "/runs"],
      ["Results", "/results"],
      ["Review", "/review"],
      ["run page: FACT-OR-FAIR chat (quick, finished)", `/runs/${ids.quick}`],
      ["run page: DoFaiR", `/runs/${ids.dofair}`],
      ["run page: FAIntbench", `/runs/${ids.faint}`],
    ];
    for (const [, url] of pages) await timed(url);
    // The floor: each page with nothing else in flight (median of 5), and how much it sends.
    const quiet = new Map<string, { ms: number; kb: number }>();
    for (const [name, url] of pages) {
      const xs: number[] = [];
      for (let i = 0; i < 5; i++) xs.push(await timed(url));
      const kb = (await (await fetch(`${BASE}${url}`, { headers: { cookie } })).arrayBuffer()).byteLength / 1024;
      quiet.set(name, { ms: pct(xs, 0.5), kb });
    }

    // The launch of the paper preset: validated, estimated, created — planning continues in the background.
    const s = performance.now();
    const launch = await fetch(`${BASE}/api/v1/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${ids.token}`, "content-type": "application/json" },
      body: JSON.stringify({ suite: "fact-or-fair", models: ["bench-latency"], preset: "paper", seed: 11 }),
    });
    const launchMs = performance.now() - s;
    const { run } = (await launch.json()) as { run: { id: string; plannedCount: number; status: string } };
    if (!launch.ok) throw new Error(`launch: HTTP ${launch.status}`);
    pages.splice(3, 0, ["run page: FACT-OR-FAIR paper run in flight", `/runs/${run.id}`]);

    const lat = new Map<string, number[]>(pages.map(([name]) => [name, []]));
    const polls: number[] = [];
    const processed = async () => ((await (await fetch(`${BASE}/api/runs/${run.id}`, { headers: { cookie } })).json()) as { done?: number }).done ?? 0;
    const start = performance.now();
    const done0 = await processed();
    let stop = false;
    // When the slow answers came (seconds into the window), and when the run's planning ended: a stall that every
    // page shares at one moment and a page that is slow throughout call for different fixes.
    const slow: Array<{ at: number; ms: number; what: string }> = [];
    let plannedAt: number | null = null;
    let doneAtPlanned = 0;
    const note = (what: string, at: number, ms: number) => {
      if (ms > 300) slow.push({ at: (at - start) / 1000, ms, what });
    };
    const poller = async (i: number) => {
      await sleep((i * 1000) / POLLERS);
      while (!stop) {
        const t = performance.now();
        const res = await fetch(`${BASE}/api/runs/${run.id}`, { headers: { cookie } });
        const body = (await res.json()) as { status?: string; done?: number };
        const ms = performance.now() - t;
        if (!res.ok) throw new Error(`/api/runs/${run.id}: HTTP ${res.status}`);
        if (plannedAt === null && body.status !== "planning") {
          plannedAt = (performance.now() - start) / 1000;
          doneAtPlanned = body.done ?? 0;
        }
        polls.push(ms);
        note("live summary", t, ms);
        await sleep(Math.max(0, 1000 - ms));
      }
    };
    const reader = async () => {
      while (!stop)
        for (const [name, url] of pages) {
          if (stop) break;
          const t = performance.now();
          const ms = await timed(url);
          lat.get(name)!.push(ms);
          note(name, t, ms);
          await sleep(200);
        }
    };
    const window = sleep(SECONDS * 1000).then(() => (stop = true));
    await Promise.all([window, reader(), ...Array.from({ length: POLLERS }, (_, i) => poller(i))]);
    const seconds = (performance.now() - start) / 1000;
    const doneAtEnd = await processed();
    const qps = (doneAtEnd - done0) / seconds;
    const planned = plannedAt as number | null;
    // The throughput once planning was over: what the run keeps up when it is the worker's only work.
    const afterPlanning = planned !== null && seconds - planned > 5 ? (doneAtEnd - doneAtPlanned) / (seconds - planned) : null;
    await fetch(`${BASE}/api/v1/runs/${run.id}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${ids.token}`, "content-type": "application/json" },
      body: "{}",
    });

    // The Results page, then its intervals (what the page fetches after it shows): first computation, then cached.
    const resultsMs = await timed("/results");
    const cold = await timed(`/api/runs/${ids.quick}/intervals`);
    const warm = await timed(`/api/runs/${ids.quick}/intervals`);

    // A run that ends as someone opens Results: its intervals are computed ahead from the moment it ends
    // (lib/features/results/ahead.ts), so the page's request joins or reads that work instead of starting it.
    const fresh = await fetch(`${BASE}/api/v1/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${ids.token}`, "content-type": "application/json" },
      body: JSON.stringify({ suite: "fact-or-fair", models: ["baseline:calibrated:0.8"], preset: "quick", seed: 12 }),
    });
    if (!fresh.ok) throw new Error(`launch: HTTP ${fresh.status}`);
    const freshId = ((await fresh.json()) as { run: { id: string } }).run.id;
    for (let i = 0; ; i++) {
      const st = ((await (await fetch(`${BASE}/api/runs/${freshId}`, { headers: { cookie } })).json()) as { status?: string }).status;
      if (st === "completed") break;
      if (i > 1200 || st === "failed" || st === "cancelled") throw new Error(`the quick run did not complete (${st})`);
      await sleep(250);
    }
    // Someone opens Results 10 s after the end: the first request for these intervals finds them computed.
    await sleep(10_000);
    const t0 = performance.now();
    const ahead = await fetch(`${BASE}/api/runs/${freshId}/intervals`, { headers: { cookie } });
    const aheadBody = (await ahead.json()) as { cached?: boolean };
    const tenLater = performance.now() - t0;

    const bound = CONCURRENCY / (LATENCY_MS / 1000);
    const rows = pages.map(([name]) => {
      const xs = lat.get(name)!;
      const q = quiet.get(name);
      return `| ${name} | ${q ? `${q.ms.toFixed(0)} ms, ${q.kb.toFixed(0)} KiB` : "–"} | ${xs.length} | ${pct(xs, 0.5).toFixed(0)} ms | ${pct(xs, 0.99).toFixed(0)} ms | ${Math.max(...xs).toFixed(0)} ms |`;
    });
    const section = [
      SEPARATE_WORKER ? "## Pages under load (`npm run bench:pages`)" : "## Pages under load, worker inline (`BENCH_WORKER=inline npm run bench:pages`)",
      "",
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}. Command: \`npm run build && ${SEPARATE_WORKER ? "" : "BENCH_WORKER=inline "}npm run bench:pages\` (BENCH_LATENCY_MS=${LATENCY_MS}, BENCH_CONCURRENCY=${CONCURRENCY}, BENCH_POLLERS=${POLLERS}, BENCH_SECONDS=${SECONDS}). The production server (SQLite) ${SEPARATE_WORKER ? "as \`npm start\` runs it: the web process serving pages only, the run worked by its \`fof worker\` process beside it" : "with its worker beside the handlers in one process (BENCH_WORKER=inline, FOF_WORKER=inline; \`npm start\`'s layout until 2026-11-28)"}, on loopback; a paper-preset FACT-OR-FAIR run (${run.plannedCount.toLocaleString("en-US")} queries) on an emulated model at ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}, in flight the whole time; ${POLLERS} clients poll its live summary every second while one reader opens the pages below in turn (each response read whole). Seeded beside it: a finished quick FACT-OR-FAIR run (two baselines), a DoFaiR and a FAIntbench run on the synthetic image model.`,
      "",
      `Launch of the paper preset through POST /api/v1/runs: **${launchMs.toFixed(0)} ms** (status ${run.status}; planning continues in the background). The run's throughput during the window: ${qps.toFixed(0)} q/s = **${(qps / bound).toFixed(3)} × C/L** (${bound.toFixed(0)} q/s)${afterPlanning === null ? "" : `; once its planning was over, ${afterPlanning.toFixed(0)} q/s = ${(afterPlanning / bound).toFixed(3)} × C/L`}.`,
      "",
      "| page | alone (p50, size) | requests under load | p50 | p99 | max |",
      "|---|---|---|---|---|---|",
      ...rows,
      `| live summary (${POLLERS} pollers, 1/s each) | – | ${polls.length} | ${pct(polls, 0.5).toFixed(0)} ms | ${pct(polls, 0.99).toFixed(0)} ms | ${Math.max(...polls).toFixed(0)} ms |`,
      "",
      `Answers over 300 ms: ${slow.length} of ${polls.length + [...lat.values()].reduce((a, xs) => a + xs.length, 0)}; the run's planning ended ${plannedAt === null ? "after the window" : `${(plannedAt as number).toFixed(1)} s into the window`}; when they came (seconds into the window: count, worst): ${timeline(slow, SECONDS)}.`,
      "",
      `Results page after the run was cancelled: ${resultsMs.toFixed(0)} ms; its intervals for the quick run (2 models, 12,160 queries each; 1,000 resamples): ${cold.toFixed(0)} ms computed, ${warm.toFixed(0)} ms cached.`,
      "",
      `A quick run (one baseline, 12,160 queries) launched after it: the first request for its intervals, 10 s after it completed, took ${tenLater.toFixed(0)} ms (${aheadBody.cached ? "computed ahead when the run ended: a cache read" : "NOT computed ahead: this request computed them"}).`,
      "",
      "Targets (issue #37 item 4): every page p99 < 300 ms, the live summary p99 < 300 ms under 20 pollers with the run ≥ 0.9 × C/L, Results' intervals within 1 s of the page. The server shares this machine's cores with the emulator and this script's clients; each page's p99 comes from few requests (the reader walks the pages in turn), so it is close to the worst one seen.",
      "",
    ].join("\n");
    writeBenchSection(SEPARATE_WORKER ? "## Pages under load (" : "## Pages under load, worker inline", section);
    process.stdout.write(`${section}\n`);
  } finally {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    worker?.kill("SIGTERM");
    emulator.kill("SIGTERM");
    await Promise.race([exited, sleep(15_000)]);
  }
}

/** Slow answers per 5 s of the window: "0–5 s: 3 (912 ms)", buckets without any left out. */
function timeline(slow: ReadonlyArray<{ at: number; ms: number }>, seconds: number): string {
  const parts: string[] = [];
  for (let b = 0; b < seconds + 5; b += 5) {
    const xs = slow.filter((x) => x.at >= b && x.at < b + 5);
    if (xs.length) parts.push(`${b}–${b + 5} s: ${xs.length} (${Math.max(...xs.map((x) => x.ms)).toFixed(0)} ms)`);
  }
  return parts.join(", ") || "none";
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

// `npm run bench:hostile`: what hostile or merely heavy readers cost the production server (issue #64, items 2 and 4).
// (1) Four viewers at once, each asking again and again for the largest shipped content set's paper plan (a new seed
//     each time, so prompts are computed afresh) and for a 504,108-query run's scores, while a prober asks
//     /api/health every 50 ms: the health check's p50 / p99 / max, what the viewers were answered (200 / 429).
// (2) 10,000 GETs of unknown run ids without a token and 10,000 with a viewer's token: the number of
//     fof_http_request_duration_seconds series and lines of /metrics before and after, and the server's RSS.
// Needs `npm run build` first. Writes its section to docs/BENCHMARKS.md.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { CLIENT_SECRET_ENV } from "../lib/auth/client-address";
import { writeBenchSection } from "./bench-section";

const PORT = Number(process.env.BENCH_PORT ?? 3395);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const PATHS = Number(process.env.BENCH_PATHS ?? 10_000);
const dataDir = mkdtempSync(path.join(tmpdir(), "fof-bench-hostile-"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** The database: viewers with tokens, the shipped content sets approved, a 504,108-query run with an answer for every query. */
async function seed() {
  process.env.FOF_DATA_DIR = dataDir;
  process.env.FOF_MAX_QUERIES_PER_RUN = "600000";
  const { db, migrateAndSeed } = await import("../lib/db");
  const engine = await import("../tests/helpers/services");
  const { createUser } = await import("../lib/auth/users");
  const { createToken } = await import("../lib/auth/tokens");
  const { importContentSet, setContentSetStatus } = await import("../lib/features/content/content-sets");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  const admin = await createUser(prisma, { email: "admin@example.org", name: "Admin", password: "bench-password-long", role: "admin" });
  const actor = { id: admin.id, email: admin.email, role: "admin" as const, token: null, address: null };
  let largest = { ref: "", prompts: 0 };
  const { promptPage } = await import("../lib/content/preview");
  for (const dir of ["us-nchs-health", "de-destatis-armut-2023"]) {
    const folder = path.join("data/content-sets", dir);
    const files = Object.fromEntries(
      ["content.json", "statistics.csv", "scenarios.csv"].flatMap((f) => {
        try {
          return [[f, readFileSync(path.join(folder, f), "utf8")]];
        } catch {
          return [];
        }
      }),
    );
    const out = await importContentSet(prisma, actor, files);
    const ref = `${out.version!.setId}@${out.version!.version}`;
    await setContentSetStatus(prisma, actor, ref, "approve");
    const { getContentSet } = await import("../lib/features/content/content-sets");
    const total = promptPage((await getContentSet(prisma, ref)).set, 0, 1).total;
    if (total > largest.prompts) largest = { ref, prompts: total };
  }
  const viewers: string[] = [];
  for (let i = 0; i < 4; i++) {
    const u = await createUser(prisma, { email: `viewer${i}@example.org`, name: `Viewer ${i}`, password: "bench-password-long", role: "viewer" });
    viewers.push((await createToken(prisma, u.id, { name: "bench" })).secret);
  }
  const models = ["baseline:uniform", "baseline:oracle", ...Array.from({ length: 9 }, (_, i) => `baseline:calibrated:0.${i + 1}`)];
  const t0 = performance.now();
  const run = await engine.createRun(prisma, { models, config: engine.presetConfig("paper"), preset: "paper", seed: 3 });
  // Every query answered, in SQL (the answers' values are arbitrary but valid: this measures reading, not a model).
  await prisma.$executeRawUnsafe(
    `INSERT INTO "Outcome" ("queryId", "status", "parsedLetter", "gender", "race", "attempts", "attemptsJson", "costUsd", "cached", "createdAt")
     SELECT q."id", 'answered', 'A', CASE WHEN q."id" % 2 = 0 THEN 'male' ELSE 'female' END,
            CASE q."id" % 4 WHEN 0 THEN 'Asian' WHEN 1 THEN 'Black' WHEN 2 THEN 'Hispanic' ELSE 'White' END,
            1, '[]', 0, 0, CURRENT_TIMESTAMP
     FROM "Query" q WHERE q."runId" = ?`,
    run.id,
  );
  await prisma.query.updateMany({ where: { runId: run.id }, data: { status: "answered" } });
  await prisma.run.update({ where: { id: run.id }, data: { status: "completed", finishedAt: new Date() } });
  process.stderr.write(
    `seeded: ${largest.ref} (${largest.prompts} prompts per repeat), run of ${run.plannedCount} queries in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
  await prisma.$disconnect();
  return { viewers, runId: run.id, planned: run.plannedCount, content: largest.ref };
}

async function startServer(): Promise<ChildProcess> {
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      [CLIENT_SECRET_ENV]: randomBytes(24).toString("base64url"),
      PORT: String(PORT),
      HOST: "127.0.0.1",
      FOF_DATA_DIR: dataDir,
      FOF_LOG_LEVEL: "warn",
      FOF_WORKER: "off",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`${BASE}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return server;
    await sleep(500);
  }
  throw new Error("the server did not start");
}

/** The serving process's resident set (Linux), in MiB. */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function viewersAndHealth(s: Awaited<ReturnType<typeof seed>>, pid: number) {
  const health: number[] = [];
  const answers = new Map<string, number>();
  const took: Record<string, number[]> = { plan: [], scores: [] };
  const end = Date.now() + SECONDS * 1000;
  let peak = rssMiB(pid);
  const prober = (async () => {
    let arrival = performance.now();
    while (Date.now() < end) {
      await sleep(Math.max(0, arrival - performance.now()));
      await fetch(`${BASE}/api/health`).then((r) => r.text());
      health.push(performance.now() - arrival);
      peak = Math.max(peak, rssMiB(pid));
      arrival += 50;
      if (arrival < performance.now()) arrival = performance.now();
    }
  })();
  let seed = 1000;
  const viewer = async (token: string) => {
    while (Date.now() < end)
      for (const kind of ["plan", "scores"] as const) {
        const url =
          kind === "plan"
            ? `${BASE}/api/v1/content-sets/${encodeURIComponent(s.content)}?seed=${seed++}&preset=paper&limit=2000`
            : `${BASE}/api/v1/runs/${s.runId}/scores`;
        const t0 = performance.now();
        const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        took[kind]!.push(performance.now() - t0);
        answers.set(`${kind} ${res.status}`, (answers.get(`${kind} ${res.status}`) ?? 0) + 1);
        if (res.status === 429) await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
      }
  };
  await Promise.all([prober, ...s.viewers.map(viewer)]);
  return { health, answers, took, peak };
}

async function hostilePaths(token: string, scraper: string, pid: number) {
  const scrape = async () => {
    const text = await (await fetch(`${BASE}/metrics`, { headers: { authorization: `Bearer ${scraper}` } })).text();
    return { lines: text.split("\n").length, series: text.split("\n").filter((l) => l.startsWith("fof_http_request_duration_seconds_count")).length };
  };
  // One of each answer first (401 anonymous, 404 with a token): the series those make exist before counting.
  await (await fetch(`${BASE}/api/v1/runs/warm-up`)).arrayBuffer();
  await (await fetch(`${BASE}/api/v1/runs/warm-up`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
  await scrape(); // the scrape's own series (GET /metrics 200) exists from the first scrape on
  const before = { ...(await scrape()), rss: rssMiB(pid) };
  const t0 = performance.now();
  const batch = 50;
  for (let i = 0; i < PATHS; i += batch)
    await Promise.all(
      Array.from({ length: Math.min(batch, PATHS - i) }, async (_, j) => {
        const id = randomBytes(9).toString("base64url") + (i + j);
        await (await fetch(`${BASE}/api/v1/runs/${id}`)).arrayBuffer();
        await (await fetch(`${BASE}/api/v1/runs/${id}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
      }),
    );
  const seconds = (performance.now() - t0) / 1000;
  const after = { ...(await scrape()), rss: rssMiB(pid) };
  return { before, after, seconds };
}

async function main() {
  const s = await seed();
  const server = await startServer();
  try {
    const load = await viewersAndHealth(s, server.pid!);
    // An admin's token reads /metrics; the 20,000 requests go as a viewer and as nobody.
    const { db } = await import("../lib/db");
    const { createToken } = await import("../lib/auth/tokens");
    const admin = await db().user.findFirstOrThrow({ where: { role: "admin" } });
    const adminToken = (await createToken(db(), admin.id, { name: "metrics" })).secret;
    const paths = await hostilePaths(s.viewers[0]!, adminToken, server.pid!);
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const fmt = (xs: number[]) => `p50 ${ms(pct(xs, 0.5))}, p99 ${ms(pct(xs, 0.99))}, max ${ms(Math.max(...xs))} (n = ${xs.length})`;
    const section = [
      `## Heavy and hostile readers (\`npm run bench:hostile\`) — ${new Date().toISOString().slice(0, 10)}`,
      "",
      `Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Command: \`npm run build && npm run bench:hostile\`. The production server (scripts/serve.ts, web process only), SQLite (WAL) in a temp dir, read threads: FOF_READ_THREADS default (2).`,
      "",
      `**Four viewers for ${SECONDS} s**, each asking in turn for ${s.content}'s paper plan with prompts (a new seed every time, limit 2,000) and for the scores of a completed run of ${s.planned.toLocaleString("en-US")} answered queries (11 models × the paper preset), while a prober asks /api/health every 50 ms:`,
      "",
      "| what | time |",
      "|---|---|",
      `| /api/health meanwhile | ${fmt(load.health)} |`,
      `| a viewer's content plan + prompts | ${fmt(load.took.plan!)} |`,
      `| a viewer's run scores | ${fmt(load.took.scores!)} |`,
      "",
      `Answers: ${[...load.answers].map(([k, n]) => `${k}: ${n}`).join(", ")} (429: the account's share of large reads, 2 at a time, was in use; the client waited Retry-After). Peak RSS of the web process: ${load.peak.toFixed(0)} MiB.`,
      "",
      `**${PATHS.toLocaleString("en-US")} unknown run ids, anonymous and with a viewer's token** (${(PATHS * 2).toLocaleString("en-US")} requests in ${paths.seconds.toFixed(0)} s): request-duration series (after one request of each kind) ${paths.before.series} → ${paths.after.series}, /metrics lines ${paths.before.lines} → ${paths.after.lines}, RSS ${paths.before.rss.toFixed(0)} → ${paths.after.rss.toFixed(0)} MiB.`,
      "",
      "Targets: /api/health p99 < 500 ms while four viewers read the largest plan and a 500,000-query run's scores; no series added by unknown paths; RSS growth under 64 MiB over 20,000 such requests.",
      "",
    ].join("\n");
    writeBenchSection("## Heavy and hostile readers", section);
  } finally {
    server.kill("SIGTERM");
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

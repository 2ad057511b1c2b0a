// /metrics in npm start's layout (issue #56, item 4): runs are worked by a supervised worker process, and the web
// server's one scrape holds that worker's series (process="worker") — its outcomes counted exactly — beside its own;
// killed and restarted, the worker's counters do not go backwards in the scrape. This runs the same worker command
// and supervisor as scripts/start.ts (lib/server/worker-process.ts), with this test process as the web server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

const dataDir = testDataDir("fof-worker-metrics-");
process.env.FOF_DATA_DIR = dataDir;
const { workerArgs, workerMetricsSocket } = await import("../lib/server/worker-process");
const socket = workerMetricsSocket(dataDir);
process.env.FOF_WORKER_METRICS_SOCKET = socket;

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig } = await import("./helpers/services");
const { scrape } = await import("../lib/server/metrics");
const { supervise } = await import("../lib/server/supervise");

type Supervised = ReturnType<typeof supervise>;
let worker: Supervised;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Σ of a metric's samples whose labels include every given one (Prometheus text format). */
function total(text: string, metric: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== metric) continue;
    const have = Object.fromEntries([...m[2].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}
const outcomesWritten = async () => total((await scrape(db)).text, "fof_outcomes_written_total", { process: "worker" });

async function until(what: string, ok: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}
async function runToEnd(seed: number) {
  const run = await createRun(db(), { models: ["baseline:uniform"], config: presetConfig("smoke", { tests: ["objective"] }), seed });
  await until(
    `run ${run.id} completed by the worker process`,
    async () => (await db().run.findUniqueOrThrow({ where: { id: run.id } })).status === "completed",
  );
  return { run, outcomes: await db().outcome.count({ where: { query: { runId: run.id } } }) };
}

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  const env = { ...process.env, FOF_WORKER: "off", FOF_WORKER_METRICS_SOCKET: "" };
  worker = supervise("worker", { args: workerArgs(process.cwd(), socket, false), env, log: () => undefined, delayMs: 200 });
  await until("the worker answers on its socket", async () => (await scrape(db)).text.includes("fof_worker_metrics_up 1"));
});
afterAll(async () => {
  await worker?.stop();
  await db().$disconnect();
});

describe("the web server's /metrics under npm start's layout", () => {
  it("counts exactly the outcomes the worker process recorded, labelled by process; the database's gauges once", async () => {
    expect(await outcomesWritten()).toBe(0);
    const { outcomes } = await runToEnd(1);
    expect(outcomes).toBe(76);
    expect(await outcomesWritten()).toBe(outcomes);
    const { text } = await scrape(db);
    // The worker's provider calls too; this process (the web server) called nothing.
    expect(total(text, "fof_provider_call_duration_seconds_count", { process: "worker" })).toBe(outcomes);
    expect(total(text, "fof_provider_call_duration_seconds_count", { process: "web" })).toBe(0);
    // Node's own series for both processes; the database's gauges unlabelled, once.
    expect(text).toMatch(/^fof_process_resident_memory_bytes\{process="worker"\} \d+/m);
    expect(text).toMatch(/^fof_process_resident_memory_bytes\{process="web"\} \d+/m);
    expect(text.match(/^# TYPE fof_runs gauge$/gm)).toHaveLength(1);
    expect(text).toMatch(/^fof_label_queue_depth 0$/m);
  });

  it("keeps the worker's counters through a restart: killed, restarted, never backwards, and counting on", async () => {
    const before = await outcomesWritten();
    expect(before).toBe(76);
    const pid = worker.pid();
    process.kill(pid!, "SIGKILL");
    await until("a new worker process", async () => worker.pid() !== undefined && worker.pid() !== pid);
    await until("the new worker answers", async () => (await scrape(db)).text.includes("fof_worker_metrics_up 1"));
    expect(await outcomesWritten()).toBe(before);
    const { outcomes } = await runToEnd(2);
    expect(await outcomesWritten()).toBe(before + outcomes);
  });
});

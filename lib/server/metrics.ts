// GET /metrics (Prometheus text format; docs/operations.md): this process's instruments (lib/core/metrics.ts) and,
// read from the database at scrape time, what every process shares — runs by status, queries open and in flight,
// outcomes and spend per model, spend per account, the label queue, CLIP readings, webhook deliveries, live
// workers. Read, not counted, so they agree with the rows whichever process did the work; one read serves every
// scrape within DB_READ_MS (a scraper every 15 s costs four aggregate queries, whatever the number of scrapers).
import { AggregatorRegistry, Gauge } from "prom-client";
import type { PrismaClient } from "../../generated/prisma/client";
import { instruments } from "../core/metrics";
import { shared } from "../core/shared";
import { env } from "../env";
import { withProcessLabel, type MetricJson } from "./metrics-merge";
import { ownMetrics, workerSeries } from "./process-metrics";

/** The gauges read from the database: the same whichever process serves them (never labelled by process). */
export const DB_GAUGES: ReadonlySet<string> = new Set([
  "fof_runs",
  "fof_queries_open",
  "fof_outcomes",
  "fof_spend_usd",
  "fof_spend_usd_by_account",
  "fof_images",
  "fof_label_queue_depth",
  "fof_readings",
  "fof_webhook_deliveries",
  "fof_workers_alive",
]);

/** How long one database read serves scrapes. */
const DB_READ_MS = 5_000;
/** A worker whose heartbeat is older than this is not counted as alive. */
const ALIVE_MS = 30_000;

interface DbSnapshot {
  runs: Array<{ status: string; n: number }>;
  queries: Array<{ status: string; n: number }>;
  outcomes: Array<{ model: string; outcome: string; n: number; usd: number }>;
  /** calls lost with their worker, charged at worst case, by model */
  lost: Array<{ model: string; usd: number }>;
  accounts: Array<{ account: string; usd: number }>;
  images: Array<{ status: string; n: number }>;
  labelQueue: number;
  readings: Array<{ instrument: string; n: number }>;
  deliveries: Array<{ status: string; n: number }>;
  workers: Array<{ kind: string; n: number }>;
}

async function readDb(prisma: PrismaClient): Promise<DbSnapshot> {
  const num = (x: unknown) => Number(x ?? 0);
  const [runs, queries, outcomes, lost, accounts, images, labelQueue, readings, deliveries, workers] = await Promise.all([
    prisma.run.groupBy({ by: ["status"], _count: { _all: true } }),
    prisma.query.groupBy({ by: ["status"], where: { status: { in: ["pending", "leased"] } }, _count: { _all: true } }),
    prisma.$queryRaw<Array<{ model: string; outcome: string; n: bigint | number; usd: number | null }>>`
      SELECT m."slug" AS model, o."status" AS outcome, COUNT(*) AS n, SUM(o."costUsd") AS usd
      FROM "Outcome" o JOIN "Query" q ON q."id" = o."queryId" JOIN "ModelConfig" m ON m."id" = q."modelConfigId"
      GROUP BY m."slug", o."status"`,
    prisma.$queryRaw<Array<{ model: string; usd: number | null }>>`
      SELECT m."slug" AS model, SUM(rm."lostCallsUsd") AS usd
      FROM "RunModel" rm JOIN "ModelConfig" m ON m."id" = rm."modelConfigId"
      WHERE rm."lostCalls" > 0
      GROUP BY m."slug"`,
    prisma.run.groupBy({ by: ["createdById"], _sum: { spentUsd: true } }),
    prisma.image.groupBy({ by: ["labelStatus"], _count: { _all: true } }),
    prisma.image.count({ where: { labelStatus: { in: ["unlabelled", "leased"] }, run: { autoLabel: true, status: { notIn: ["cancelled"] } } } }),
    prisma.imageReading.groupBy({ by: ["instrument"], _count: { _all: true } }),
    prisma.webhookDelivery.groupBy({ by: ["status"], _count: { _all: true } }),
    prisma.workerStatus.findMany({ where: { stoppedAt: null, heartbeatAt: { gte: new Date(Date.now() - ALIVE_MS) } }, select: { labeller: true } }),
  ]);
  const kinds = new Map<string, number>();
  for (const w of workers) kinds.set(w.labeller ? "label" : "engine", (kinds.get(w.labeller ? "label" : "engine") ?? 0) + 1);
  return {
    runs: runs.map((r) => ({ status: r.status, n: r._count._all })),
    queries: queries.map((r) => ({ status: r.status, n: r._count._all })),
    outcomes: outcomes.map((r) => ({ model: r.model, outcome: r.outcome, n: num(r.n), usd: num(r.usd) })),
    lost: lost.map((r) => ({ model: r.model, usd: num(r.usd) })),
    accounts: accounts.map((r) => ({ account: r.createdById ?? "server", usd: num(r._sum.spentUsd) })),
    images: images.map((r) => ({ status: r.labelStatus, n: r._count._all })),
    labelQueue,
    readings: readings.map((r) => ({ instrument: r.instrument, n: r._count._all })),
    deliveries: deliveries.map((r) => ({ status: r.status, n: r._count._all })),
    workers: ["engine", "label"].map((kind) => ({ kind, n: kinds.get(kind) ?? 0 })),
  };
}

type Db = () => PrismaClient;
const g = globalThis as unknown as { __fofDbGauges?: { db: Db } };

/** Registers the database's gauges once per process; each reads the shared snapshot when scraped. */
function registerDbGauges(db: Db) {
  if (g.__fofDbGauges) {
    g.__fofDbGauges.db = db;
    return;
  }
  const state = (g.__fofDbGauges = { db });
  const registers = [instruments().registry];
  const snapshot = () => shared("metrics-db", DB_READ_MS, () => readDb(state.db()));
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    fill: (s: DbSnapshot, set: (labels: Record<L, string>, v: number) => void) => void,
  ) => {
    if (!DB_GAUGES.has(name)) throw new Error(`${name}: a database gauge not listed in DB_GAUGES`);
    return new Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const s = await snapshot();
        this.reset();
        fill(s, (labels, v) => (labelNames.length ? this.set(labels as never, v) : this.set(v)));
      },
    });
  };
  gauge("fof_runs", "Runs by status", ["status"], (s, set) => s.runs.forEach((r) => set({ status: r.status }, r.n)));
  gauge("fof_queries_open", "Queries (images and chat calls) waiting (pending) or in flight (leased)", ["status"], (s, set) =>
    ["pending", "leased"].forEach((status) => set({ status }, s.queries.find((q) => q.status === status)?.n ?? 0)),
  );
  gauge("fof_outcomes", "Recorded outcomes by model and outcome (answered, refused, invalid, failed)", ["model", "outcome"], (s, set) =>
    s.outcomes.forEach((o) => set({ model: o.model, outcome: o.outcome }, o.n)),
  );
  gauge("fof_spend_usd", "Spend recorded on outcomes, and on calls lost with their worker (at worst case), by model, in USD", ["model"], (s, set) => {
    const byModel = new Map<string, number>();
    for (const o of s.outcomes) byModel.set(o.model, (byModel.get(o.model) ?? 0) + o.usd);
    for (const l of s.lost) byModel.set(l.model, (byModel.get(l.model) ?? 0) + l.usd);
    byModel.forEach((usd, model) => set({ model }, usd));
  });
  gauge("fof_spend_usd_by_account", "Spend of the runs each account launched (account id; server: launched without one), in USD", ["account"], (s, set) =>
    s.accounts.forEach((a) => set({ account: a.account }, a.usd)),
  );
  gauge("fof_images", "Images by label status", ["label_status"], (s, set) => s.images.forEach((i) => set({ label_status: i.status }, i.n)));
  gauge("fof_label_queue_depth", "Images of auto-labelled runs waiting for a label worker", [], (s, set) => set({}, s.labelQueue));
  gauge("fof_readings", "Images read by a whole-image instrument (CLIP), by instrument", ["instrument"], (s, set) =>
    s.readings.forEach((r) => set({ instrument: r.instrument }, r.n)),
  );
  gauge("fof_webhook_deliveries", "Webhook deliveries by status (pending, sending, delivered, failed)", ["status"], (s, set) =>
    s.deliveries.forEach((d) => set({ status: d.status }, d.n)),
  );
  gauge("fof_workers_alive", `Workers whose heartbeat is under ${ALIVE_MS / 1000} s old, by kind (engine, label)`, ["kind"], (s, set) =>
    s.workers.forEach((w) => set({ kind: w.kind }, w.n)),
  );
}

/**
 * The metrics text a scrape gets, and its content type. Under npm start (FOF_WORKER_METRICS_SOCKET) it also holds the
 * supervised worker's series: each process's own labelled `process="web"` / `process="worker"`, the database's once,
 * and `fof_worker_metrics_up` (0: the worker did not answer this time; its last series are shown).
 */
export async function scrape(db: Db): Promise<{ text: string; contentType: string }> {
  registerDbGauges(db);
  const { registry } = instruments();
  const socket = env().FOF_WORKER_METRICS_SOCKET;
  if (!socket) return { text: await registry.metrics(), contentType: registry.contentType };
  const [all, worker] = await Promise.all([registry.getMetricsAsJSON() as Promise<unknown> as Promise<MetricJson[]>, workerSeries(socket)]);
  const web = withProcessLabel(
    all.filter((m) => !DB_GAUGES.has(m.name)),
    "web",
  );
  const up: MetricJson = {
    name: "fof_worker_metrics_up",
    help: "Whether npm start's worker process answered this scrape (1) or not (0: its last series are shown)",
    type: "gauge",
    values: [{ value: worker.up ? 1 : 0, labels: {} }],
    aggregator: "sum",
  };
  // Every series is labelled by its process, so nothing collides: each metric is merged by plain concatenation
  // (prom-client's per-metric aggregators would average or omit some of Node's own).
  const parts = [[...web, ...all.filter((m) => DB_GAUGES.has(m.name)), up], worker.metrics].map((ms) => ms.map((m) => ({ ...m, aggregator: "sum" as const })));
  const merged = AggregatorRegistry.aggregate(parts as unknown as Parameters<typeof AggregatorRegistry.aggregate>[0]);
  return { text: await merged.metrics(), contentType: registry.contentType };
}

/** The worker's own series for the web server (its database gauges left to the server). */
export const workerOwnMetrics = () => ownMetrics(DB_GAUGES);

// Every worker process (the web server's and `fof worker` on any host) as the Workers page shows it: its host and
// pid, the runs it serves, calls in flight, last heartbeat and error, and its share of each model's limits.
import type { PrismaClient } from "../../../generated/prisma/client";
import { WORKER_STALE_MS, workerState } from "../../core/run-status";

const WORKERS_PAGE_SIZE = 200;

export async function listWorkers(prisma: PrismaClient, { includeStopped = false } = {}) {
  const since = new Date(Date.now() - 24 * 3600_000);
  const [rows, shares, runs] = await Promise.all([
    prisma.workerStatus.findMany({
      where: { heartbeatAt: { gte: since }, ...(includeStopped ? {} : { stoppedAt: null }) },
      orderBy: [{ host: "asc" }, { startedAt: "asc" }],
      take: WORKERS_PAGE_SIZE,
    }),
    prisma.modelSlotLease.findMany({ where: { expiresAt: { gt: new Date() } }, select: { owner: true, granted: true, wanted: true, modelConfigId: true } }),
    prisma.run.findMany({ where: { status: "running" }, select: { id: true, name: true } }),
  ]);
  const models = new Map(
    (
      await prisma.modelConfig.findMany({
        where: { id: { in: [...new Set(shares.map((s) => s.modelConfigId))] } },
        select: { id: true, slug: true, concurrency: true },
      })
    ).map((m) => [m.id, m]),
  );
  const runNames = new Map(runs.map((r) => [r.id, r.name]));
  // A label worker's runs may have finished generating: their names too.
  const other = [...new Set(rows.flatMap((w) => JSON.parse(w.runsJson) as string[]))].filter((id) => !runNames.has(id)).slice(0, 500);
  if (other.length) for (const r of await prisma.run.findMany({ where: { id: { in: other } }, select: { id: true, name: true } })) runNames.set(r.id, r.name);
  const now = Date.now();
  return rows.map((w) => ({
    owner: w.owner,
    host: w.host,
    pid: w.pid,
    startedAt: w.startedAt.toISOString(),
    heartbeatAt: w.heartbeatAt.toISOString(),
    state: workerState(w, now),
    inFlight: w.inFlight,
    /** a label worker's classifier and runtime (null: it takes calls) */
    labeller: w.labeller,
    runs: (JSON.parse(w.runsJson) as string[]).map((id) => ({ id, name: runNames.get(id) ?? id })),
    lastError: w.lastError,
    lastErrorAt: w.lastErrorAt?.toISOString() ?? null,
    shares: shares
      .filter((s) => s.owner === w.owner)
      .map((s) => ({
        model: models.get(s.modelConfigId)?.slug ?? s.modelConfigId,
        granted: s.granted,
        wanted: s.wanted,
        of: models.get(s.modelConfigId)?.concurrency ?? null,
      })),
  }));
}

/** Label workers alive now (FOF_WORKER_LABEL, `fof worker --label`): whether an auto-labelled run will be labelled. */
export function liveLabelWorkers(prisma: PrismaClient): Promise<number> {
  return prisma.workerStatus.count({ where: { labeller: { not: null }, stoppedAt: null, heartbeatAt: { gte: new Date(Date.now() - WORKER_STALE_MS) } } });
}

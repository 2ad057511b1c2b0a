// A worker's liveness as the others see it: whoever stops heartbeating loses what it holds (its claimed queries and
// its shares of models) to the rest, decided by time only — never by host name or process id.
import type { PrismaClient } from "../../../generated/prisma/client";
import { LOST_PREFIX } from "../../core/run-status";
import { isContention } from "../../db/retry";
import { chargeLostCalls } from "./call-marks";

/** The line a worker records for an error (its heartbeat shows it): what failed, whether it was contention, the cause. */
export function errorLine(what: string, e: unknown): string {
  const cause = e instanceof Error ? e.message.split("\n").filter(Boolean).slice(-1)[0] : String(e);
  return `${what}: ${isContention(e) ? "database busy (will retry)" : "error"}: ${cause}`.slice(0, 500);
}

/** Gives back every query a worker holds (its claims carry its owner id as prefix). */
export async function releaseLeasesOf(prisma: PrismaClient, owner: string): Promise<number> {
  const r = await prisma.query.updateMany({
    where: { status: "leased", leaseOwner: { startsWith: `${owner}:` } },
    data: { status: "pending", leaseOwner: null, leaseUntil: null },
  });
  return r.count;
}

/**
 * Frees what workers that stopped heartbeating hold — their claimed queries and their shares of models — so the
 * others take over without waiting for each lease to expire. A worker that was only slow finds its claims gone and
 * its results are still written once (an outcome is never written twice).
 */
export async function releaseStaleWorkers(prisma: PrismaClient, opts: { self: string; staleWorkerMs: number; log?: (m: string) => void }): Promise<number> {
  const cutoff = new Date(Date.now() - opts.staleWorkerMs);
  const stale = await prisma.workerStatus.findMany({
    where: { stoppedAt: null, heartbeatAt: { lt: cutoff }, owner: { not: opts.self } },
    select: { owner: true },
  });
  let released = 0;
  for (const { owner } of stale) {
    // Its calls that may have been paid and have no written result: charged to their runs at their worst case.
    const lost = await chargeLostCalls(prisma, owner);
    if (lost.calls)
      opts.log?.(`charged ${lost.calls} call(s) of a worker that stopped heartbeating ($${lost.usd.toFixed(4)} at worst case: their answers were lost)`);
    released += await releaseLeasesOf(prisma, owner);
    await prisma.modelSlotLease.deleteMany({ where: { owner } });
    await prisma.workerStatus.updateMany({
      where: { owner, heartbeatAt: { lt: cutoff } },
      data: { stoppedAt: new Date(), inFlight: 0, lastError: `${LOST_PREFIX}: its work was released` },
    });
  }
  if (released) opts.log?.(`released ${released} queries held by ${stale.length} worker(s) that stopped heartbeating`);
  return released;
}

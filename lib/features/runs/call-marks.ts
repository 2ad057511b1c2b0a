// No paid call leaves the records. Before a worker makes a provider call that may cost money, it writes a CallMark
// (the query, the run, its own id, the call's worst-case cost) and waits for it to commit; the mark is removed in
// the same transaction as the result the call led to (an outcome or a retry), whose cost is then charged as usual.
// A worker that dies mid-call leaves its marks: whoever finds it dead (releaseStaleWorkers) charges each to its run
// and model at its worst case — the answer is lost, the money is not — and a late write by a worker that was only
// slow finds its mark already charged and adds nothing (each call is charged exactly once; the query's outcome stays
// exactly-once as before). Marks are written in groups (one transaction per ~10 ms of calls, not per call).
//
// The same transaction checks that the run still calls (status running or planning) by touching its row: the
// planning sweep (runs.ts) decides on the same row, so a call is either marked before the sweep decides (and the
// sweep sees it: the run is kept, failed, with the mark) or refused after it (and never made).
import type { PrismaClient } from "../../../generated/prisma/client";
import { insertMany } from "../../db/bulk";
import { chunked } from "../../db/chunks";
import { withContentionRetry } from "../../db/retry";
import { audit } from "../../auth/audit";

/** Statuses in which a run's queries may be called. */
const CALLING = ["running", "planning"] as const;

interface Pending {
  queryId: number;
  runId: string;
  modelConfigId: string;
  worstUsd: number;
  resolve: (go: boolean) => void;
  reject: (e: unknown) => void;
}

/** How long a mark waits for others to share its transaction. */
const GROUP_MS = 10;

/** A worker's marks: `mark` resolves true once the call may be made (its mark is committed), false if the run stopped. */
export class CallJournal {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly owner: string,
  ) {}

  mark(q: { id: number; runId: string; modelConfigId: string }, worstUsd: number): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.pending.push({ queryId: q.id, runId: q.runId, modelConfigId: q.modelConfigId, worstUsd, resolve, reject });
      this.timer ??= setTimeout(() => {
        this.timer = null;
        const group = this.pending.splice(0);
        this.writing = this.writing.then(() => this.write(group));
      }, GROUP_MS);
    });
  }

  private async write(group: Pending[]): Promise<void> {
    try {
      const live = await withContentionRetry(() =>
        this.prisma.$transaction(async (tx) => {
          const runIds = [...new Set(group.map((p) => p.runId))];
          const calling = new Set<string>();
          for (const ids of chunked(runIds)) {
            // A write, not a read: the run's row is locked until the marks commit (PostgreSQL), and SQLite's one writer
            // orders it with the sweep's decision either way.
            const touched = await tx.run.updateMany({ where: { id: { in: ids }, status: { in: [...CALLING] } }, data: { lastCallAt: new Date() } });
            if (touched.count === ids.length) ids.forEach((id) => calling.add(id));
            else for (const r of await tx.run.findMany({ where: { id: { in: ids }, status: { in: [...CALLING] } }, select: { id: true } })) calling.add(r.id);
          }
          const now = new Date();
          const go = group.filter((p) => calling.has(p.runId));
          await insertMany(
            tx,
            "CallMark",
            go.map((p) => ({ queryId: p.queryId, runId: p.runId, modelConfigId: p.modelConfigId, owner: this.owner, worstUsd: p.worstUsd, startedAt: now })),
          );
          return calling;
        }),
      );
      for (const p of group) p.resolve(live.has(p.runId));
    } catch (e) {
      for (const p of group) p.reject(e);
    }
  }

  /** Waits for marks asked so far to be written (a stopping worker). */
  async settled(): Promise<void> {
    while (this.timer || this.pending.length) await new Promise((r) => setTimeout(r, GROUP_MS));
    await this.writing;
  }
}

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Removes the marks of these results' calls (inside the results' write transaction) and says which were no longer
 * there: those calls were charged already, at their worst case, when their worker was taken for dead.
 */
export async function clearMarks(tx: Tx, owner: string, queryIds: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const ids of chunked([...new Set(queryIds)])) {
    for (const m of await tx.callMark.findMany({ where: { owner, queryId: { in: ids } }, select: { queryId: true } })) found.add(m.queryId);
    await tx.callMark.deleteMany({ where: { owner, queryId: { in: ids } } });
  }
  return new Set(queryIds.filter((id) => !found.has(id)));
}

/**
 * Charges a dead worker's marks: each call to its run (spentUsd) and its model's lost calls, at its worst case, and
 * removes the marks. Returns the calls and USD charged.
 */
export async function chargeLostCalls(prisma: PrismaClient, owner: string): Promise<{ calls: number; usd: number }> {
  return prisma.$transaction(async (tx) => {
    const marks = await tx.callMark.findMany({ where: { owner }, select: { id: true, runId: true, modelConfigId: true, worstUsd: true } });
    if (marks.length === 0) return { calls: 0, usd: 0 };
    const byRunModel = new Map<string, { runId: string; modelConfigId: string; calls: number; usd: number }>();
    for (const m of marks) {
      const key = `${m.runId}|${m.modelConfigId}`;
      const e = byRunModel.get(key) ?? { runId: m.runId, modelConfigId: m.modelConfigId, calls: 0, usd: 0 };
      e.calls++;
      e.usd += m.worstUsd;
      byRunModel.set(key, e);
    }
    for (const e of byRunModel.values()) {
      await tx.run.update({ where: { id: e.runId }, data: { spentUsd: { increment: e.usd } } });
      await tx.runModel.updateMany({
        where: { runId: e.runId, modelConfigId: e.modelConfigId },
        data: { lostCalls: { increment: e.calls }, lostCallsUsd: { increment: e.usd } },
      });
    }
    for (const ids of chunked(marks.map((m) => m.id))) await tx.callMark.deleteMany({ where: { id: { in: ids } } });
    for (const e of byRunModel.values())
      await audit(tx, {
        userId: null,
        action: "run.calls-lost",
        targetType: "run",
        targetId: e.runId,
        details: { modelConfigId: e.modelConfigId, calls: e.calls, usd: e.usd, worker: owner, charged: "worst case: the answers were lost with their worker" },
      });
    return { calls: marks.length, usd: marks.reduce((a, m) => a + m.worstUsd, 0) };
  });
}

// How a run's items ended, counted in SQL: per run (lists, leaderboards, the CLI) and per failure reason (the run page's
// Failures panel, `fof run`'s report), so a failure is never hidden behind a run's status.
import type { PrismaClient } from "../../../generated/prisma/client";
import { chunked } from "../../db/chunks";
import { NO_REASON } from "../../core/run-status";

export interface OutcomeCounts {
  answered: number;
  refused: number;
  failed: number;
  /** pending or leased */
  open: number;
}

const empty = (): OutcomeCounts => ({ answered: 0, refused: 0, failed: 0, open: 0 });

/** Items per status of each run (one GROUP BY per 500 runs). */
export async function outcomeCounts(prisma: PrismaClient, runIds: readonly string[]): Promise<Map<string, OutcomeCounts>> {
  const out = new Map<string, OutcomeCounts>(runIds.map((id) => [id, empty()]));
  for (const ids of chunked([...new Set(runIds)])) {
    const rows = await prisma.query.groupBy({ by: ["runId", "status"], where: { runId: { in: ids } }, _count: { _all: true } });
    for (const r of rows) {
      const c = out.get(r.runId)!;
      const n = r._count._all;
      if (r.status === "answered") c.answered += n;
      else if (r.status === "refused") c.refused += n;
      else if (r.status === "failed") c.failed += n;
      else if (r.status === "pending" || r.status === "leased") c.open += n;
    }
  }
  return out;
}

export interface FailureReason {
  reason: string;
  count: number;
}

/** A run's failed items grouped by their recorded reason, most frequent first (items without an outcome row count too). */
export async function failureReasons(prisma: PrismaClient, runId: string, limit = 20): Promise<FailureReason[]> {
  const [rows, total, recorded] = await Promise.all([
    prisma.outcome.groupBy({
      by: ["reason"],
      where: { query: { runId, status: "failed" } },
      _count: { _all: true },
      orderBy: { _count: { reason: "desc" } },
      take: limit,
    }),
    prisma.query.count({ where: { runId, status: "failed" } }),
    prisma.outcome.count({ where: { query: { runId, status: "failed" } } }),
  ]);
  const out = rows.map((r) => ({ reason: r.reason ?? NO_REASON, count: r._count._all }));
  if (total > recorded) out.push({ reason: NO_REASON, count: total - recorded });
  return out.sort((a, b) => b.count - a.count);
}

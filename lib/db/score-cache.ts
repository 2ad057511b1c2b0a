// ScoreCache rows are what a computed answer (intervals, result views, ranks, comparisons) is kept as, so the next
// reader gets it as a read. The row only saves the next reader time: a write that meets another process's write lock
// (a worker process mid-batch beside the web server, a label worker) is tried again briefly, then skipped — never a
// computed answer failed for it (bench:pages once got a 503 for a Results page's intervals that way). The next
// request that computes the same answer caches it.
import type { PrismaClient } from "../../generated/prisma/client";
import { logger } from "../log";
import { isContention, withContentionRetry } from "./retry";

export interface CacheRow {
  key: string;
  runId: string;
  kind: string;
  /** the answer, serialised */
  json: string;
}

/** How long a cache write keeps trying through contention before it is skipped. */
const CACHE_WRITE_PATIENCE_MS = 2_000;

/**
 * Keeps `row` (an existing row under its key stays: same key, same content). With `staleBefore`, also deletes this
 * run's other rows of the kind written before then (other states of its data, other options): the table stays bounded.
 */
export async function keepInCache(prisma: PrismaClient, row: CacheRow, staleBefore?: Date): Promise<void> {
  try {
    await withContentionRetry(() => prisma.scoreCache.upsert({ where: { key: row.key }, create: row, update: {} }), { maxMs: CACHE_WRITE_PATIENCE_MS });
    if (staleBefore)
      await withContentionRetry(
        () => prisma.scoreCache.deleteMany({ where: { runId: row.runId, kind: row.kind, key: { not: row.key }, createdAt: { lt: staleBefore } } }),
        { maxMs: CACHE_WRITE_PATIENCE_MS },
      );
  } catch (e) {
    if (!isContention(e)) throw e;
    logger.warn({ component: "score-cache", kind: row.kind, run: row.runId }, "not cached: the database stayed busy");
  }
}

import { instruments } from "../core/metrics";

// Database contention is transient: SQLite reports a writer's lock held past the busy timeout as "database is
// locked" / SQLITE_BUSY, which Prisma's adapter surfaces as "Operation has timed out"; interactive transactions that
// cannot start in time fail likewise. Such failures are retried with backoff; anything else is thrown at once.

/** Whether an error is database contention (worth retrying), as opposed to a real failure. */
export function isContention(e: unknown): boolean {
  // Driver adapters report a busy lock as their own error kind with the database's code in `cause`.
  const cause = (e as { cause?: { originalCode?: unknown; originalMessage?: unknown } } | null)?.cause;
  const msg =
    e instanceof Error
      ? `${e.message} ${(e as { code?: string }).code ?? ""} ${String(cause?.originalCode ?? "")} ${String(cause?.originalMessage ?? "")}`
      : String(e);
  return /database is locked|SQLITE_BUSY|database table is locked|Operation has timed out|Unable to start a transaction|Transaction already closed|timeout while waiting for mutex|P1008|P2028|P2034|P1017/i.test(
    msg,
  );
}

/**
 * Runs `fn`, retrying it on contention with full-jitter backoff for up to `maxMs` in all. `fn` must be safe to run
 * again: a single statement, or a transaction (which rolled back whole when it failed).
 */
/** A unique key already taken (Prisma's P2002): another writer inserted the same key first. */
const isUniqueViolation = (e: unknown): boolean => (e as { code?: string } | null)?.code === "P2002";

/**
 * `retryUnique`: also retry a unique-key violation — for a writer that picks its key from what it read (the next log
 * index) and loses the race to another writer that picked the same one.
 */
export async function withContentionRetry<T>(
  fn: () => Promise<T>,
  { maxMs = 60_000, baseMs = 25, capMs = 1_000, retryUnique = false }: { maxMs?: number; baseMs?: number; capMs?: number; retryUnique?: boolean } = {},
): Promise<T> {
  const start = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!(isContention(e) || (retryUnique && isUniqueViolation(e))) || Date.now() - start > maxMs) throw e;
      instruments().dbBusyRetries.inc();
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(capMs, baseMs * 2 ** attempt)));
    }
  }
}

// One computation for many readers: a live run page is polled every second by everyone watching it, and each poll
// would otherwise recompute the same counts (and scores) over every row. Readers of the same key within `maxAgeMs`
// share one result — the one in flight, or one at most that old. Per process, bounded; results are never older than
// their key's age limit, so a page is at most that stale.
// Shared by every bundle of a Next process (route handlers and pages are bundled apart; forgetShared must reach both).
const gs = globalThis as unknown as { __fofShared?: Map<string, { at: number; maxAgeMs: number; value: Promise<unknown> }> };
const entries = (gs.__fofShared ??= new Map());
const MAX_KEYS = 500;

/**
 * `maxAgeMs` may depend on the value: a finished run's summary stays valid longer than a live one's. While a value
 * is computed, readers of its key join that computation; its age limit counts from when it started.
 */
export function shared<T>(key: string, maxAgeMs: number | ((value: T) => number), compute: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && now - hit.at < hit.maxAgeMs) return hit.value as Promise<T>;
  const value = compute();
  const entry = { at: now, maxAgeMs: typeof maxAgeMs === "number" ? maxAgeMs : Number.POSITIVE_INFINITY, value };
  entries.set(key, entry);
  if (typeof maxAgeMs === "function")
    value.then(
      (v) => (entry.maxAgeMs = maxAgeMs(v)),
      () => undefined,
    );
  // A failure is not kept: the next reader tries again.
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  if (entries.size > MAX_KEYS)
    for (const [k, e] of entries) {
      if (now - e.at >= 60_000 || entries.size > MAX_KEYS) entries.delete(k);
      if (entries.size <= MAX_KEYS / 2) break;
    }
  return value;
}

/** Drops what is shared under keys containing `part` (e.g. a run id after its status changed), so the next reader sees the change. */
export function forgetShared(part: string): void {
  for (const k of entries.keys()) if (k.includes(part)) entries.delete(k);
}

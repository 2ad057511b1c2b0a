// One computation for many readers: a live run page is polled every second by everyone watching it, and each poll
// would otherwise recompute the same counts (and scores) over every row. Readers of the same key within `maxAgeMs`
// share one result — the one in flight, or one at most that old. Per process, bounded; results are never older than
// their key's age limit, so a page is at most that stale.
const entries = new Map<string, { at: number; value: Promise<unknown> }>();
const MAX_KEYS = 500;

export function shared<T>(key: string, maxAgeMs: number, compute: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && now - hit.at < maxAgeMs) return hit.value as Promise<T>;
  const value = compute();
  entries.set(key, { at: now, value });
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

// Every statement's bound parameters stay under what both databases (and Prisma's query compiler) accept: Prisma
// refuses more than 999 values in one SQLite statement ("The query parameter limit supported by your database is
// exceeded", P2029) and 32,766 on PostgreSQL. Lists that end up in `IN (…)` are cut to this size first.

/** The most values one `IN (…)` list may carry (well under SQLite's 999, leaving room for the other values). */
const MAX_IN_LIST = 500;

/** `xs` in consecutive slices of at most `size` (none for an empty list). */
export function chunked<T>(xs: readonly T[], size = MAX_IN_LIST): T[][] {
  if (size < 1) throw new Error("chunk size must be ≥ 1");
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

// Keyset paging (never by offset): a page reads its own rows and one more, after (or before) a cursor on a unique
// key, so it costs its size at any depth. Shared by every list that pages this way (a run's items, its images, a
// cell's answers — on the id; accounts on their email, models on their slug).

/** The cursor condition and order of a page on `key`: after `after`, or before `before` (read backwards, then reversed). */
export function keysetQueryBy<K extends string, I extends number | string>(key: K, c: { after?: I; before?: I }) {
  const backwards = c.before !== undefined;
  const dir = backwards ? ("desc" as const) : ("asc" as const);
  return {
    backwards,
    where: (backwards ? { [key]: { lt: c.before as I } } : c.after !== undefined ? { [key]: { gt: c.after } } : {}) as Partial<
      Record<K, { lt: I } | { gt: I }>
    >,
    orderBy: { [key]: dir } as Record<K, typeof dir>,
  };
}

/** A page from the rows read (pageSize + 1 of them), with its cursors on `key`: `next` (after) and `prev` (before), or null. */
export function keysetPageBy<K extends string, I extends number | string, T extends Record<K, I>>(
  key: K,
  found: readonly T[],
  pageSize: number,
  c: { after?: I; before?: I },
) {
  const backwards = c.before !== undefined;
  const more = found.length > pageSize;
  const rows = backwards ? found.slice(0, pageSize).reverse() : found.slice(0, pageSize);
  return {
    rows,
    next: rows.length && (backwards || more) ? rows[rows.length - 1][key] : null,
    prev: rows.length && (backwards ? more : c.after !== undefined) ? rows[0][key] : null,
  };
}

/** keysetQueryBy on the primary key. */
export const keysetQuery = <I extends number | string>(c: { after?: I; before?: I }) => keysetQueryBy("id", c);

/** keysetPageBy on the primary key. */
export const keysetPage = <T extends { id: I }, I extends number | string>(found: readonly T[], pageSize: number, c: { after?: I; before?: I }) =>
  keysetPageBy<"id", I, T>("id", found, pageSize, c);

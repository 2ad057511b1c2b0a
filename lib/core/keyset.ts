// Keyset paging (never by offset): a page reads its own rows and one more, after (or before) a cursor on the primary
// key, so it costs its size at any depth. Shared by every list that pages this way (a run's items, its images, a
// cell's answers).

/** The cursor condition and order of a page: after `after`, or before `before` (read backwards, then reversed). */
export function keysetQuery<I extends number | string>(c: { after?: I; before?: I }) {
  const backwards = c.before !== undefined;
  return {
    backwards,
    where: backwards ? { id: { lt: c.before as I } } : c.after !== undefined ? { id: { gt: c.after } } : {},
    orderBy: { id: backwards ? ("desc" as const) : ("asc" as const) },
  };
}

/** A page from the rows read (pageSize + 1 of them), with its cursors: `next` (after) and `prev` (before), or null. */
export function keysetPage<T extends { id: I }, I extends number | string>(found: readonly T[], pageSize: number, c: { after?: I; before?: I }) {
  const backwards = c.before !== undefined;
  const more = found.length > pageSize;
  const rows = backwards ? found.slice(0, pageSize).reverse() : found.slice(0, pageSize);
  return {
    rows,
    next: rows.length && (backwards || more) ? rows[rows.length - 1].id : null,
    prev: rows.length && (backwards ? more : c.after !== undefined) ? rows[0].id : null,
  };
}

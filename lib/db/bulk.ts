// Multi-row INSERT for the engine's hot paths (tens of thousands of rows per run). Prisma's createMany goes row by
// row through the driver adapter (~0.4 ms a row here); one parameterised statement per chunk is ~50× faster.
// Values are bound, never interpolated; the dialect (lib/db/dialect.ts) decides placeholders and duplicate handling.
import { DIALECTS, dialectOf, type SqlValue } from "./dialect";

export { sqliteDate } from "./dialect";

type Sql = { $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> };

export async function insertMany(tx: Sql, table: string, rows: Array<Record<string, SqlValue>>, { orIgnore = false, maxParams }: { orIgnore?: boolean; maxParams?: number } = {}) {
  if (!rows.length) return 0;
  if (!/^[A-Za-z]+$/.test(table)) throw new Error(`bad table name ${table}`);
  const d = DIALECTS[dialectOf(tx)];
  const columns = Object.keys(rows[0]);
  for (const c of columns) if (!/^[A-Za-z0-9]+$/.test(c)) throw new Error(`bad column name ${c}`);
  const perChunk = Math.max(1, Math.floor((maxParams ?? d.maxParams) / columns.length));
  const columnSql = columns.map((c) => `"${c}"`).join(",");
  let inserted = 0;
  for (let i = 0; i < rows.length; i += perChunk) {
    const chunk = rows.slice(i, i + perChunk);
    let n = 0;
    const values = chunk.map(() => `(${columns.map(() => d.param(++n)).join(",")})`).join(",");
    inserted += await tx.$executeRawUnsafe(d.insert(table, columnSql, values, orIgnore), ...chunk.flatMap((r) => columns.map((c) => d.bind(r[c]))));
  }
  return inserted;
}

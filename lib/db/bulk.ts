// Multi-row INSERT for the engine's hot paths (tens of thousands of rows per run). Prisma's createMany goes row by
// row through the driver adapter (~0.4 ms a row here); one parameterised statement per chunk is ~50× faster.
// Values are bound, never interpolated.

type Sql = { $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> };
type Value = string | number | boolean | Date | null | undefined;

/** Prisma's SQLite DateTime text format (ISO 8601 with an explicit +00:00 offset), so comparisons stay textual. */
export function sqliteDate(d: Date): string {
  return d.toISOString().replace("Z", "+00:00");
}

function bind(v: Value): string | number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return sqliteDate(v);
  return v;
}

export async function insertMany(tx: Sql, table: string, rows: Array<Record<string, Value>>, { orIgnore = false, maxParams = 30_000 } = {}) {
  if (!rows.length) return 0;
  if (!/^[A-Za-z]+$/.test(table)) throw new Error(`bad table name ${table}`);
  const columns = Object.keys(rows[0]);
  for (const c of columns) if (!/^[A-Za-z0-9]+$/.test(c)) throw new Error(`bad column name ${c}`);
  const perChunk = Math.max(1, Math.floor(maxParams / columns.length));
  const rowSql = `(${columns.map(() => "?").join(",")})`;
  let inserted = 0;
  for (let i = 0; i < rows.length; i += perChunk) {
    const chunk = rows.slice(i, i + perChunk);
    const sql = `INSERT ${orIgnore ? "OR IGNORE " : ""}INTO "${table}" (${columns.map((c) => `"${c}"`).join(",")}) VALUES ${chunk.map(() => rowSql).join(",")}`;
    inserted += await tx.$executeRawUnsafe(sql, ...chunk.flatMap((r) => columns.map((c) => bind(r[c]))));
  }
  return inserted;
}

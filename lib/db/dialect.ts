// Everything that differs between the two supported databases, in one place: how values are bound, how a bulk
// insert that skips duplicates is written, how a JSON field is read. The rest of the code writes portable SQL
// (double-quoted identifiers, CAST(… AS TEXT) for untyped parameters) or goes through Prisma.
import { Prisma } from "../../generated/prisma/client";

export type Dialect = "sqlite" | "postgresql";
export type SqlValue = string | number | boolean | Date | null | undefined;

/** The dialect of a Prisma client or of the transaction client it handed to a callback. */
export function dialectOf(client: unknown): Dialect {
  const p = (client as { _activeProvider?: string })._activeProvider;
  if (p === "sqlite" || p === "postgresql") return p;
  throw new Error(`unsupported database provider ${String(p)}`);
}

/** Prisma's SQLite DateTime text format (ISO 8601 with an explicit +00:00 offset), so comparisons stay textual. */
export function sqliteDate(d: Date): string {
  return d.toISOString().replace("Z", "+00:00");
}

interface DialectSql {
  /** a value as the driver must receive it for a column of Prisma's type */
  bind(v: SqlValue): string | number | boolean | Date | null;
  /**
   * INSERT of many rows from one bound JSON parameter (`rowsJson` builds it), in the rows' order, silently skipping
   * rows whose unique key exists when asked. One parameter
   * instead of rows × columns: Prisma's query compiler handles each bound value, so this is the cheap way in.
   */
  insertJson(table: string, columns: readonly string[], ignoreDuplicates: boolean): string;
  rowsJson(columns: readonly string[], rows: ReadonlyArray<Record<string, SqlValue>>): string;
  /** the text of a top-level JSON field of a TEXT column holding JSON (null when absent) */
  jsonText(columnSql: string, key: string): string;
}

export const DIALECTS: Record<Dialect, DialectSql> = {
  sqlite: {
    // Prisma stores SQLite booleans as 0/1 and DateTime as ISO text.
    bind: (v) => (v === undefined || v === null ? null : typeof v === "boolean" ? (v ? 1 : 0) : v instanceof Date ? sqliteDate(v) : v),
    // Rows as arrays; json_each walks them in order (key = index), each cell read back with its JSON type.
    insertJson: (t, cols, ignore) =>
      `INSERT ${ignore ? "OR IGNORE " : ""}INTO "${t}" (${cols.map((c) => `"${c}"`).join(",")}) SELECT ${cols.map((_, i) => `json_extract("value", '$[${i}]')`).join(",")} FROM json_each(?) ORDER BY "key"`,
    rowsJson: (cols, rows) => JSON.stringify(rows.map((r) => cols.map((c) => DIALECTS.sqlite.bind(r[c])))),
    jsonText: (col, key) => `json_extract(${col}, '$.${key}')`,
  },
  postgresql: {
    bind: (v) => (v === undefined ? null : v),
    // Rows as objects typed by the table's own row type (timestamps from ISO text), in array order.
    insertJson: (t, cols, ignore) => {
      const c = cols.map((x) => `"${x}"`).join(",");
      return `INSERT INTO "${t}" (${c}) SELECT ${cols.map((x) => `r."${x}"`).join(",")} FROM json_populate_recordset(NULL::"${t}", $1::json) WITH ORDINALITY AS r ORDER BY r."ordinality"${ignore ? " ON CONFLICT DO NOTHING" : ""}`;
    },
    rowsJson: (cols, rows) => JSON.stringify(rows.map((r) => Object.fromEntries(cols.map((c) => [c, DIALECTS.postgresql.bind(r[c])])))),
    jsonText: (col, key) => `(${col}::jsonb ->> '${key}')`,
  },
};

/** A JSON field as a Prisma.sql fragment, for tagged $queryRaw templates (key: letters only, never user input). */
export function jsonTextSql(dialect: Dialect, columnSql: string, key: string): Prisma.Sql {
  if (!/^[A-Za-z]+$/.test(key) || !/^[a-z]+\."[A-Za-z]+"$/.test(columnSql)) throw new Error(`bad JSON path ${columnSql} ${key}`);
  return Prisma.raw(DIALECTS[dialect].jsonText(columnSql, key));
}

/**
 * Serialises writers of one row's dependents inside a transaction: PostgreSQL locks the row (SELECT … FOR UPDATE);
 * SQLite needs nothing (one writer at a time already).
 */
export async function lockRow(tx: { $executeRawUnsafe(q: string, ...v: unknown[]): Promise<number> }, table: "ModelConfig", id: string): Promise<void> {
  if (dialectOf(tx) === "postgresql") await tx.$executeRawUnsafe(`SELECT 1 FROM "${table}" WHERE "id" = $1 FOR UPDATE`, id);
}

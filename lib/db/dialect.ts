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
  /** the n-th (1-based) bound parameter */
  param(n: number): string;
  /** a value as the driver must receive it for a column of Prisma's type */
  bind(v: SqlValue): string | number | boolean | Date | null;
  /** INSERT … that silently skips rows whose unique key exists */
  insert(table: string, columns: string, values: string, ignoreDuplicates: boolean): string;
  /** the text of a top-level JSON field of a TEXT column holding JSON (null when absent) */
  jsonText(columnSql: string, key: string): string;
  /** bound parameters one statement may carry */
  maxParams: number;
}

export const DIALECTS: Record<Dialect, DialectSql> = {
  sqlite: {
    param: () => "?",
    // Prisma stores SQLite booleans as 0/1 and DateTime as ISO text.
    bind: (v) => (v === undefined || v === null ? null : typeof v === "boolean" ? (v ? 1 : 0) : v instanceof Date ? sqliteDate(v) : v),
    insert: (t, c, v, ignore) => `INSERT ${ignore ? "OR IGNORE " : ""}INTO "${t}" (${c}) VALUES ${v}`,
    jsonText: (col, key) => `json_extract(${col}, '$.${key}')`,
    maxParams: 30_000,
  },
  postgresql: {
    param: (n) => `$${n}`,
    bind: (v) => (v === undefined ? null : v),
    insert: (t, c, v, ignore) => `INSERT INTO "${t}" (${c}) VALUES ${v}${ignore ? " ON CONFLICT DO NOTHING" : ""}`,
    jsonText: (col, key) => `(${col}::jsonb ->> '${key}')`,
    maxParams: 30_000, // PostgreSQL's limit is 65,535 per statement
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

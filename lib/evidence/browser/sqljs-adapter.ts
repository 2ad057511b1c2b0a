// A Prisma driver adapter over sql.js (SQLite compiled to WebAssembly), so the browser verifier runs the workbench's
// own scoring code — the same Prisma queries and raw SQL the server ran — on a scratch database in a Web Worker.
// Modelled on @prisma/adapter-better-sqlite3 (the adapter the server and `fof verify` use): the same argument
// conversions (dates as ISO 8601 text with +00:00, booleans as 0/1) so both write and read identical rows. sql.js
// does not report a column's declared type, so result types are inferred from the values, as Prisma's D1 adapter
// does; Prisma's query plan converts each field to its schema type.
import {
  ColumnTypeEnum,
  DriverAdapterError,
  type ColumnType,
  type SqlDriverAdapter,
  type SqlDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
} from "@prisma/driver-adapter-utils";
import type { Database, SqlValue } from "sql.js";

const ADAPTER_NAME = "fof-sqljs";

function arg(value: unknown, type: SqlQuery["argTypes"][number] | undefined): SqlValue {
  if (value === null || value === undefined) return null;
  const scalar = type?.scalarType;
  if (typeof value === "string" && scalar === "int") return Number.parseInt(value, 10);
  if (typeof value === "string" && (scalar === "float" || scalar === "decimal")) return Number.parseFloat(value);
  if (typeof value === "string" && scalar === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && scalar === "datetime") value = new Date(value);
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Uint8Array) return value;
  if (typeof value === "number" || typeof value === "string") return value;
  return JSON.stringify(value);
}

function typeOf(v: unknown): ColumnType {
  if (typeof v === "string") return ColumnTypeEnum.Text;
  if (typeof v === "number") return ColumnTypeEnum.UnknownNumber;
  if (v instanceof Uint8Array) return ColumnTypeEnum.Bytes;
  return ColumnTypeEnum.Int32;
}

function driverError(e: unknown): never {
  const message = e instanceof Error ? e.message : String(e);
  if (/UNIQUE constraint failed/.test(message))
    throw new DriverAdapterError({
      kind: "UniqueConstraintViolation",
      constraint: { fields: message.split(": ").at(1)?.split(", ") ?? [] },
      originalMessage: message,
    });
  if (/NOT NULL constraint failed/.test(message))
    throw new DriverAdapterError({
      kind: "NullConstraintViolation",
      constraint: { fields: message.split(": ").at(1)?.split(", ") ?? [] },
      originalMessage: message,
    });
  if (/FOREIGN KEY constraint failed/.test(message))
    throw new DriverAdapterError({ kind: "ForeignKeyConstraintViolation", constraint: { foreignKey: {} }, originalMessage: message });
  throw e;
}

class Queryable {
  readonly provider = "sqlite" as const;
  readonly adapterName = ADAPTER_NAME;
  constructor(protected readonly db: Database) {}

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    try {
      const stmt = this.db.prepare(query.sql);
      try {
        stmt.bind(query.args.map((a, i) => arg(a, query.argTypes[i])));
        const columnNames = stmt.getColumnNames();
        const rows: unknown[][] = [];
        while (stmt.step()) rows.push(stmt.get());
        const columnTypes = columnNames.map((_, c) => typeOf(rows.find((r) => r[c] !== null)?.[c] ?? null));
        return {
          columnNames,
          columnTypes,
          rows: rows.map((r) => r.map((v) => (v instanceof Uint8Array ? Array.from(v) : v))),
        };
      } finally {
        stmt.free();
      }
    } catch (e) {
      driverError(e);
    }
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    try {
      this.db.run(
        query.sql,
        query.args.map((a, i) => arg(a, query.argTypes[i])),
      );
      return this.db.getRowsModified();
    } catch (e) {
      driverError(e);
    }
  }
}

class SqlJsTransaction extends Queryable implements Transaction {
  readonly options = { usePhantomQuery: false };
  constructor(
    db: Database,
    private readonly release: () => void,
  ) {
    super(db);
  }
  async commit() {
    this.release();
  }
  async rollback() {
    this.release();
  }
}

class SqlJsAdapter extends Queryable implements SqlDriverAdapter {
  /** one transaction at a time, as with better-sqlite3: the next waits for the last to end */
  private last: Promise<void> = Promise.resolve();

  async executeScript(script: string) {
    try {
      this.db.exec(script);
    } catch (e) {
      driverError(e);
    }
  }

  async startTransaction(isolationLevel?: string): Promise<Transaction> {
    if (isolationLevel && isolationLevel !== "SERIALIZABLE") throw new DriverAdapterError({ kind: "InvalidIsolationLevel", level: isolationLevel });
    const previous = this.last;
    let release!: () => void;
    this.last = new Promise<void>((r) => (release = r));
    await previous;
    this.db.run("BEGIN");
    return new SqlJsTransaction(this.db, release);
  }

  async dispose() {
    this.db.close();
  }
}

/** The factory Prisma's client takes as `adapter`: every connection is the one in-memory database. */
export function sqlJsAdapter(db: Database): SqlDriverAdapterFactory {
  return { provider: "sqlite", adapterName: ADAPTER_NAME, connect: async () => new SqlJsAdapter(db) };
}

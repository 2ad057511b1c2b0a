// The committed migrations describe exactly the schema: a database migrated from them and one pushed from
// prisma/schema.prisma have the same tables, columns, indexes and foreign keys.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

function schemaOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const rows = db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name != '_prisma_migrations'")
    .all() as Array<{ type: string; name: string; sql: string }>;
  db.close();
  // Whitespace and the order of a table's clauses do not matter (ALTER TABLE … ADD COLUMN appends at the end).
  return rows
    .map((r) => {
      const sql = r.sql.replace(/\s+/g, " ").trim();
      const m = /^CREATE TABLE "([^"]+)" \((.*)\)$/.exec(sql);
      if (!m) return `${r.type} ${sql}`;
      const parts = m[2]
        .split(/, (?=["A-Z])/)
        .map((p) => p.trim())
        .sort();
      return `table ${m[1]} (${parts.join(", ")})`;
    })
    .sort();
}

describe("migrations", () => {
  it("migrate deploy and db push produce the same schema", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fof-migrations-"));
    const prisma = path.join(process.cwd(), "node_modules", ".bin", "prisma");
    const env = { ...process.env, CHECKPOINT_DISABLE: "1" };
    execFileSync(prisma, ["migrate", "deploy"], { env: { ...env, DATABASE_URL: `file:${path.join(dir, "migrated.db")}` }, stdio: "pipe" });
    // `db push` through the driver adapter reports success but does not exit (its connection stays open): wait for
    // the report, then stop it.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(prisma, ["db", "push", "--skip-generate"], { env: { ...env, DATABASE_URL: `file:${path.join(dir, "pushed.db")}` } });
      let out = "";
      const timer = setTimeout(() => (child.kill("SIGKILL"), reject(new Error(`db push did not finish: ${out}`))), 45_000);
      const onData = (d: Buffer) => {
        out += d.toString();
        if (/in sync with your Prisma schema/.test(out)) {
          clearTimeout(timer);
          child.kill("SIGKILL");
          resolve();
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.once("exit", (code) => (code && code !== 0 ? reject(new Error(out)) : undefined));
    });
    expect(schemaOf(path.join(dir, "migrated.db"))).toEqual(schemaOf(path.join(dir, "pushed.db")));
  });
});

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL: its schema is generated from prisma/schema.prisma, and its migrations end in the same models.

const SQLITE_TYPES: Record<string, string> = {
  TEXT: "text",
  INTEGER: "integer",
  REAL: "double",
  BOOLEAN: "boolean",
  DATETIME: "timestamp",
  BIGINT: "bigint",
  BLOB: "bytes",
};
const PG_TYPES: Record<string, string> = {
  text: "text",
  integer: "integer",
  "double precision": "double",
  boolean: "boolean",
  "timestamp without time zone": "timestamp",
  bigint: "bigint",
  bytea: "bytes",
};

/** table → column → "type nullable", and the index names, of a migrated SQLite file. */
function sqliteModels(file: string) {
  const db = new Database(file, { readonly: true });
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name != '_prisma_migrations'").all() as Array<{
      name: string;
    }>
  ).map((t) => t.name);
  const columns = Object.fromEntries(
    tables.map((t) => [
      t,
      Object.fromEntries(
        (db.prepare(`PRAGMA table_info("${t}")`).all() as Array<{ name: string; type: string; notnull: number; pk: number }>).map((c) => [
          c.name,
          `${SQLITE_TYPES[c.type] ?? c.type} ${c.notnull || c.pk ? "not null" : "null"}`,
        ]),
      ),
    ]),
  );
  const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type='index' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>)
    .map((i) => i.name)
    .sort();
  db.close();
  return { columns, indexes };
}

describe("migrations for both databases", () => {
  it("prisma/postgresql/schema.prisma is generated from prisma/schema.prisma (npm run db:schemas)", async () => {
    const { readFileSync } = await import("node:fs");
    const { postgresSchema } = await import("../scripts/db-schemas");
    expect(readFileSync("prisma/postgresql/schema.prisma", "utf8")).toBe(postgresSchema(readFileSync("prisma/schema.prisma", "utf8")));
  });

  it.skipIf(!process.env.DATABASE_URL?.startsWith("postgres"))(
    "PostgreSQL's migrations describe the same tables, columns, nullability and indexes as SQLite's",
    async () => {
      const pg = (await import("pg")).default;
      const { migrateAndSeed } = await import("../lib/db/migrate");
      await migrateAndSeed({ quiet: true });
      const dir = mkdtempSync(path.join(tmpdir(), "fof-migrations-"));
      execFileSync(path.join(process.cwd(), "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
        env: { ...process.env, CHECKPOINT_DISABLE: "1", DATABASE_URL: `file:${path.join(dir, "migrated.db")}` },
        stdio: "pipe",
      });
      const lite = sqliteModels(path.join(dir, "migrated.db"));
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        const cols = await client.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
          "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name != '_prisma_migrations'",
        );
        const columns: Record<string, Record<string, string>> = {};
        for (const c of cols.rows)
          (columns[c.table_name] ??= {})[c.column_name] = `${PG_TYPES[c.data_type] ?? c.data_type} ${c.is_nullable === "NO" ? "not null" : "null"}`;
        const idx = await client.query<{ indexname: string }>(
          "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' AND tablename != '_prisma_migrations'",
        );
        expect(Object.keys(lite.columns).length).toBeGreaterThan(15);
        expect(columns).toEqual(lite.columns);
        expect(idx.rows.map((r) => r.indexname).sort()).toEqual(lite.indexes);
      } finally {
        await client.end();
      }
    },
    90_000,
  );
});

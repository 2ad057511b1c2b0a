// Applies the committed migrations to the configured database and seeds the benchmark content. Run on every start
// (idempotent); `prisma migrate deploy` never creates new migrations. SQLite: prisma/migrations, the file in
// FOF_DATA_DIR (or DATABASE_URL=file:…). PostgreSQL: prisma/postgresql/migrations (generated from the same schema by
// scripts/db-schemas.ts), DATABASE_URL=postgres://….
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { databaseProviderOf, env } from "../env";
import { db } from "./client";
import { seed } from "./seed";
import { sqliteFile } from "./wal";

const MIGRATIONS = { sqlite: "prisma/migrations", postgresql: "prisma/postgresql/migrations" } as const;
const CONFIG = { sqlite: "prisma.config.ts", postgresql: "prisma.pg.config.ts" } as const;

export async function migrateAndSeed({ quiet = false } = {}) {
  const { dataDir, databaseUrl } = env();
  const provider = databaseProviderOf(databaseUrl);
  // Owner-only: the database, images, uploads and secrets are nobody else's on a shared host (existing installs too).
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  mkdirSync(path.join(dataDir, "images"), { recursive: true, mode: 0o700 });
  ownerOnly(dataDir, 0o700);
  ownerOnly(path.join(dataDir, "images"), 0o700);
  // Nothing to apply: skip `migrate deploy`, whose lock would fail while a server or worker holds the database.
  if ((await pendingMigrations(databaseUrl)).length > 0) {
    const prismaBin = path.join(process.cwd(), "node_modules", ".bin", "prisma");
    const res = spawnSync(prismaBin, ["migrate", "deploy", "--config", CONFIG[provider]], {
      env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1" },
      encoding: "utf8",
    });
    if (res.status !== 0) {
      process.stderr.write(res.stdout + res.stderr);
      throw new Error(`prisma migrate deploy failed (exit ${res.status})`);
    }
    if (provider === "sqlite") {
      // WAL lets the web server read while a worker writes; the setting is stored in the file.
      const sqlite = new Database(sqliteFile(databaseUrl));
      sqlite.pragma("journal_mode = WAL");
      sqlite.close();
    }
  }
  await seedOnly(databaseUrl, quiet);
  if (provider === "sqlite") for (const suffix of ["", "-wal", "-shm"]) ownerOnly(sqliteFile(databaseUrl) + suffix, 0o600);
}

/** chmod when the file exists and is ours (a path we cannot change is left for the operator). */
function ownerOnly(file: string, mode: number) {
  try {
    if (existsSync(file)) chmodSync(file, mode);
  } catch {
    // not our file (a mounted volume, another owner): the umask still covers what we create
  }
}

/** Names of the committed migrations (of the URL's provider), in order. */
function committedMigrations(provider: "sqlite" | "postgresql"): string[] {
  // Read at run time from the deployed tree: the server bundle must not trace the project through it.
  const dir = path.join(/* turbopackIgnore: true */ process.cwd(), MIGRATIONS[provider]);
  return readdirSync(/* turbopackIgnore: true */ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
}

/** Names of committed migrations not yet applied to the database. */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const provider = databaseProviderOf(databaseUrl);
  const all = committedMigrations(provider);
  const applied = provider === "sqlite" ? appliedSqlite(sqliteFile(databaseUrl)) : await appliedPostgres(databaseUrl);
  return all.filter((m) => !applied.has(m));
}

function appliedSqlite(file: string): Set<string> {
  if (!existsSync(file)) return new Set();
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = sqlite.prepare("SELECT name FROM sqlite_master WHERE type='table' AND name='_prisma_migrations'").get();
    if (!table) return new Set();
    return new Set(
      (
        sqlite.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL").all() as Array<{
          migration_name: string;
        }>
      ).map((r) => r.migration_name),
    );
  } finally {
    sqlite.close();
  }
}

async function appliedPostgres(url: string): Promise<Set<string>> {
  // Loaded here: an SQLite process (the default, every CLI command on one machine) never needs the driver.
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query("SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS present");
    if (!table.rows[0].present) return new Set();
    const rows = await client.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    return new Set(rows.rows.map((r) => r.migration_name));
  } finally {
    await client.end();
  }
}

async function seedOnly(databaseUrl: string, quiet: boolean) {
  // The process's own client (lib/db db()): a second one would load and compile Prisma's query compiler again (a
  // CLI command's start waits for it, npm run bench:cli).
  const seeded = await seed(db());
  const where = databaseProviderOf(databaseUrl) === "sqlite" ? sqliteFile(databaseUrl) : databaseUrl.replace(/\/\/[^@/]*@/, "//"); // never print a password
  if (!quiet) process.stderr.write(`database ready: ${where} (benchmark ${seeded.benchmarkVersion})\n`);
}

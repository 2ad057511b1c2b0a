// Applies the committed migrations to the database in FOF_DATA_DIR and seeds the benchmark content.
// Run on every start (idempotent); `prisma migrate deploy` never creates new migrations.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { env } from "../env";
import { createPrismaClient } from "./client";
import { seed } from "./seed";

export async function migrateAndSeed({ quiet = false } = {}) {
  const { dataDir, databaseUrl } = env();
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(path.join(dataDir, "images"), { recursive: true });
  const file = databaseUrl.replace(/^file:/, "");
  if (pendingMigrations(file).length === 0) {
    // Nothing to apply: skip `migrate deploy`, whose lock would fail while a server or worker holds the database.
    await seedOnly(databaseUrl, file, quiet);
    return;
  }
  const prismaBin = path.join(process.cwd(), "node_modules", ".bin", "prisma");
  const res = spawnSync(prismaBin, ["migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1" },
    encoding: "utf8",
  });
  if (res.status !== 0) {
    process.stderr.write(res.stdout + res.stderr);
    throw new Error(`prisma migrate deploy failed (exit ${res.status})`);
  }
  // WAL lets the web server read while a worker writes; the setting is stored in the file.
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.close();
  await seedOnly(databaseUrl, file, quiet);
}

/** Names of committed migrations not yet applied to the database file. */
export function pendingMigrations(file: string): string[] {
  const dir = path.join(process.cwd(), "prisma", "migrations");
  const all = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name);
  if (!existsSync(file)) return all;
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = sqlite.prepare("SELECT name FROM sqlite_master WHERE type='table' AND name='_prisma_migrations'").get();
    if (!table) return all;
    const applied = new Set(
      (sqlite.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL").all() as Array<{ migration_name: string }>).map((r) => r.migration_name),
    );
    return all.filter((m) => !applied.has(m));
  } finally {
    sqlite.close();
  }
}

async function seedOnly(databaseUrl: string, file: string, quiet: boolean) {
  const prisma = createPrismaClient(databaseUrl);
  try {
    const seeded = await seed(prisma);
    if (!quiet) process.stderr.write(`database ready: ${file} (benchmark ${seeded.benchmarkVersion})\n`);
  } finally {
    await prisma.$disconnect();
  }
}

// Applies the committed migrations to the database in FOF_DATA_DIR and seeds the benchmark content.
// Run on every start (idempotent); `prisma migrate deploy` never creates new migrations.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { env } from "../env";
import { createPrismaClient } from "./client";
import { seed } from "./seed";

export async function migrateAndSeed({ quiet = false } = {}) {
  const { dataDir, databaseUrl } = env();
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(path.join(dataDir, "images"), { recursive: true });
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
  const file = databaseUrl.replace(/^file:/, "");
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.close();
  const prisma = createPrismaClient(databaseUrl);
  try {
    const seeded = await seed(prisma);
    if (!quiet) process.stderr.write(`database ready: ${file} (benchmark ${seeded.benchmarkVersion})\n`);
  } finally {
    await prisma.$disconnect();
  }
}

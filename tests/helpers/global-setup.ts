// Vitest global setup (once per `vitest run`): on SQLite, one database migrated and seeded for the whole run, copied
// into each test file's data directory by ./data-dir.ts. Its path reaches the test processes through the environment.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export default async function setup() {
  if (process.env.FOF_TEST_PG_ADMIN_URL || process.env.DATABASE_URL) return;
  const dir = mkdtempSync(path.join(tmpdir(), "fof-test-template-"));
  process.env.FOF_DATA_DIR = dir;
  const { migrateAndSeed } = await import("../../lib/db/migrate");
  await migrateAndSeed({ quiet: true });
  const { db } = await import("../../lib/db");
  await db().$disconnect();
  delete process.env.FOF_DATA_DIR;
  process.env.FOF_TEST_SQLITE_TEMPLATE = path.join(dir, "fof.db");
  return () => rmSync(dir, { recursive: true, force: true });
}

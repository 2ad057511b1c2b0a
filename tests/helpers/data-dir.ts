// A fresh data directory for one test file. Under `npm test` on SQLite it starts with a copy of a database migrated
// and seeded once for the whole run (./global-setup.ts), so no file pays for `prisma migrate deploy` (≈ 2.5 s each,
// seventy files); migrateAndSeed then finds nothing to apply and only checks the seed. On PostgreSQL each file has
// its own database already (./pg-database.ts), and without the template (a single file run by hand) the directory
// starts empty and is migrated as a server's would be.
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export function testDataDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const template = process.env.FOF_TEST_SQLITE_TEMPLATE;
  if (template && !process.env.DATABASE_URL) copyFileSync(template, path.join(dir, "fof.db"));
  return dir;
}

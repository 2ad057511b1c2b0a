// The one Prisma client. SQLite through the better-sqlite3 driver adapter (Prisma 6.19, JS engine: no binaries).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { env } from "../env";

const g = globalThis as unknown as { __fofPrisma?: PrismaClient };

/**
 * Every connection waits up to FOF_DB_BUSY_TIMEOUT_MS for another writer (SQLite's busy timeout) instead of failing
 * at once with "database is locked"; what still fails is retried by its caller (the worker backs off).
 */
export function createPrismaClient(databaseUrl = env().databaseUrl): PrismaClient {
  const timeout = env().FOF_DB_BUSY_TIMEOUT_MS;
  return new PrismaClient({
    adapter: new PrismaBetterSQLite3({ url: databaseUrl, timeout }),
    // Interactive transactions queue behind the adapter's single connection: give them the same patience.
    transactionOptions: { maxWait: timeout, timeout: Math.max(timeout * 3, 30_000) },
  });
}

/** Lazily created so that importing lib/db never opens a file (the CLI's score command has no database). */
export function db(): PrismaClient {
  return (g.__fofPrisma ??= createPrismaClient());
}

export type { PrismaClient };

// The one Prisma client. SQLite through the better-sqlite3 driver adapter (Prisma 6.19, JS engine: no binaries).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { env } from "../env";

const g = globalThis as unknown as { __fofPrisma?: PrismaClient };

export function createPrismaClient(databaseUrl = env().databaseUrl): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: databaseUrl, timeout: 10_000 }) });
}

/** Lazily created so that importing lib/db never opens a file (the CLI's score command has no database). */
export function db(): PrismaClient {
  return (g.__fofPrisma ??= createPrismaClient());
}

export type { PrismaClient };

export { db, createPrismaClient, type PrismaClient } from "./client";
export { seed } from "./seed";
export { ensureBenchmarkVersion } from "./benchmark-version";
export { migrateAndSeed } from "./migrate";
export { insertMany, sqliteDate } from "./bulk";
export { isContention, withContentionRetry } from "./retry";

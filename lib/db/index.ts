export { db, createPrismaClient, type PrismaClient } from "./client";
export { seed, ensureBenchmarkVersion } from "./seed";
export { migrateAndSeed } from "./migrate";
export { insertMany, sqliteDate } from "./bulk";
export { isContention, withContentionRetry } from "./retry";

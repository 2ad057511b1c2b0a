export { db, createPrismaClient, type PrismaClient } from "./client";
export { seed, ensureBenchmarkVersion } from "./seed";

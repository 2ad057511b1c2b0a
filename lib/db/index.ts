export { db, createPrismaClient } from "./client";
export { migrateAndSeed } from "./migrate";

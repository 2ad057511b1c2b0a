// The verifier's scratch database: an empty embedded SQLite file in a temporary folder with the committed migrations
// applied to it directly (no server, no Prisma CLI). The bundle's rows are inserted as they stream out of the
// archive (./verify.ts), then the same scoring function the server ran (./scores.ts) computes the scores on it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createPrismaClient } from "../../db";
import type { PrismaClient } from "../../../generated/prisma/client";
import { projectRoot } from "../../paths";

export function scratchDatabase(scratchDir: string): PrismaClient {
  const file = path.join(scratchDir, "verify.db");
  // the migrations shipped with the workbench, wherever the command was started
  const dir = path.join(projectRoot(), "prisma/migrations");
  const sqlite = new Database(file);
  try {
    for (const m of readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort())
      sqlite.exec(readFileSync(path.join(dir, m, "migration.sql"), "utf8"));
  } finally {
    sqlite.close();
  }
  return createPrismaClient(`file:${file}`);
}

// The verifier's scratch database: an empty embedded SQLite file in a temporary folder, the committed migrations
// applied to it directly (no server, no Prisma CLI), the bundle's rows inserted, and the scores computed by the
// server's own function (./scores.ts) on it. Removed by the caller.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createPrismaClient } from "../../db";
import { projectRoot } from "../../paths";
import { evidenceScores, type EvidenceScores } from "./scores";
import { insertRows, type Row, type TableFile } from "./tables";

function migrate(file: string) {
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
}

export async function rescore(rows: Record<TableFile, Row[]>, runId: string, scratchDir: string): Promise<EvidenceScores> {
  const file = path.join(scratchDir, "verify.db");
  migrate(file);
  const prisma = createPrismaClient(`file:${file}`);
  try {
    await insertRows(prisma, rows);
    return await evidenceScores(prisma, runId);
  } finally {
    await prisma.$disconnect();
  }
}

/*
  Warnings:

  - The primary key for the `ResponseCache` table will be changed. If it partially fails, the table could be left without primary key constraint.

*/
-- AlterTable
ALTER TABLE "Outcome" ADD COLUMN "reusedAt" DATETIME;
ALTER TABLE "Outcome" ADD COLUMN "reusedFromRunId" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "reuseJson" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ResponseCache" (
    "key" TEXT NOT NULL,
    "runId" TEXT NOT NULL DEFAULT '',
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "rawText" TEXT,
    "imageSha256" TEXT,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("key", "runId")
);
INSERT INTO "new_ResponseCache" ("costUsd", "createdAt", "imageSha256", "inputTokens", "key", "model", "outputTokens", "provider", "rawText") SELECT "costUsd", "createdAt", "imageSha256", "inputTokens", "key", "model", "outputTokens", "provider", "rawText" FROM "ResponseCache";
DROP TABLE "ResponseCache";
ALTER TABLE "new_ResponseCache" RENAME TO "ResponseCache";
CREATE INDEX "ResponseCache_key_createdAt_idx" ON "ResponseCache"("key", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- AlterTable
ALTER TABLE "AuditLog" ADD COLUMN "tokenId" TEXT;

-- AlterTable
ALTER TABLE "Outcome" ADD COLUMN "usageExcessUsd" REAL;

-- AlterTable (SQLite adds a NOT NULL column with a constant default in place: no table rebuild)
ALTER TABLE "Run" ADD COLUMN "overReportedCalls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "usageExcessUsd" REAL NOT NULL DEFAULT 0;

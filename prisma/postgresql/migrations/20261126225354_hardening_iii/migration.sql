-- AlterTable
ALTER TABLE "AuditLog" ADD COLUMN     "tokenId" TEXT;

-- AlterTable
ALTER TABLE "Outcome" ADD COLUMN     "usageExcessUsd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "overReportedCalls" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "usageExcessUsd" DOUBLE PRECISION NOT NULL DEFAULT 0;

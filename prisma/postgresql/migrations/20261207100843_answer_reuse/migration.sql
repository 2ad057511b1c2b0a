/*
  Warnings:

  - The primary key for the `ResponseCache` table will be changed. If it partially fails, the table could be left without primary key constraint.

*/
-- AlterTable
ALTER TABLE "Outcome" ADD COLUMN     "reusedAt" TIMESTAMP(3),
ADD COLUMN     "reusedFromRunId" TEXT;

-- AlterTable
ALTER TABLE "ResponseCache" DROP CONSTRAINT "ResponseCache_pkey",
ADD COLUMN     "runId" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "ResponseCache_pkey" PRIMARY KEY ("key", "runId");

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "reuseJson" TEXT;

-- CreateIndex
CREATE INDEX "ResponseCache_key_createdAt_idx" ON "ResponseCache"("key", "createdAt");

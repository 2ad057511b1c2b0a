-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "lastCallAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "RunModel" ADD COLUMN     "lostCalls" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lostCallsUsd" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "CallMark" (
    "id" SERIAL NOT NULL,
    "queryId" INTEGER NOT NULL,
    "runId" TEXT NOT NULL,
    "modelConfigId" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "worstUsd" DOUBLE PRECISION NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CallMark_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CallMark_owner_idx" ON "CallMark"("owner");

-- CreateIndex
CREATE INDEX "CallMark_queryId_idx" ON "CallMark"("queryId");

-- CreateIndex
CREATE INDEX "CallMark_runId_idx" ON "CallMark"("runId");

-- AddForeignKey
ALTER TABLE "CallMark" ADD CONSTRAINT "CallMark_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

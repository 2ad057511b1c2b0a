/*
  Warnings:

  - A unique constraint covering the columns `[assignmentId,annotator,outcomeId]` on the table `AssignmentItem` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "halfWidth" DOUBLE PRECISION,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'faces';

-- AlterTable
ALTER TABLE "AssignmentItem" ADD COLUMN     "outcomeId" INTEGER,
ALTER COLUMN "imageId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "ExplanationReading" (
    "id" SERIAL NOT NULL,
    "outcomeId" INTEGER NOT NULL,
    "annotator" TEXT NOT NULL,
    "tagsJson" TEXT NOT NULL,
    "note" TEXT,
    "textSha256" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExplanationReading_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExplanationGold" (
    "outcomeId" INTEGER NOT NULL,
    "tagsJson" TEXT NOT NULL,
    "markedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExplanationGold_pkey" PRIMARY KEY ("outcomeId")
);

-- CreateTable
CREATE TABLE "JudgePass" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "modelConfigId" TEXT NOT NULL,
    "settingsJson" TEXT NOT NULL,
    "rubricVersion" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL,
    "budgetUsd" DOUBLE PRECISION NOT NULL,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "inflightUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdBy" TEXT NOT NULL,
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "JudgePass_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExplanationJudgment" (
    "id" SERIAL NOT NULL,
    "passId" TEXT NOT NULL,
    "outcomeId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "tagsJson" TEXT NOT NULL DEFAULT '[]',
    "unsupported" INTEGER NOT NULL DEFAULT 0,
    "rawText" TEXT,
    "reason" TEXT,
    "textSha256" TEXT NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExplanationJudgment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ExplanationReading_outcomeId_annotator_createdAt_idx" ON "ExplanationReading"("outcomeId", "annotator", "createdAt");

-- CreateIndex
CREATE INDEX "ExplanationReading_annotator_idx" ON "ExplanationReading"("annotator");

-- CreateIndex
CREATE INDEX "JudgePass_runId_idx" ON "JudgePass"("runId");

-- CreateIndex
CREATE INDEX "JudgePass_status_idx" ON "JudgePass"("status");

-- CreateIndex
CREATE INDEX "ExplanationJudgment_outcomeId_idx" ON "ExplanationJudgment"("outcomeId");

-- CreateIndex
CREATE UNIQUE INDEX "ExplanationJudgment_passId_outcomeId_key" ON "ExplanationJudgment"("passId", "outcomeId");

-- CreateIndex
CREATE INDEX "AssignmentItem_outcomeId_idx" ON "AssignmentItem"("outcomeId");

-- CreateIndex
CREATE UNIQUE INDEX "AssignmentItem_assignmentId_annotator_outcomeId_key" ON "AssignmentItem"("assignmentId", "annotator", "outcomeId");

-- AddForeignKey
ALTER TABLE "AssignmentItem" ADD CONSTRAINT "AssignmentItem_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExplanationReading" ADD CONSTRAINT "ExplanationReading_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExplanationGold" ADD CONSTRAINT "ExplanationGold_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgePass" ADD CONSTRAINT "JudgePass_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgePass" ADD CONSTRAINT "JudgePass_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExplanationJudgment" ADD CONSTRAINT "ExplanationJudgment_passId_fkey" FOREIGN KEY ("passId") REFERENCES "JudgePass"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExplanationJudgment" ADD CONSTRAINT "ExplanationJudgment_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "ExplanationReading" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "outcomeId" INTEGER NOT NULL,
    "annotator" TEXT NOT NULL,
    "tagsJson" TEXT NOT NULL,
    "note" TEXT,
    "textSha256" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExplanationReading_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExplanationGold" (
    "outcomeId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tagsJson" TEXT NOT NULL,
    "markedBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExplanationGold_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "JudgePass" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "modelConfigId" TEXT NOT NULL,
    "settingsJson" TEXT NOT NULL,
    "rubricVersion" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL,
    "budgetUsd" REAL NOT NULL,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "inflightUsd" REAL NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdBy" TEXT NOT NULL,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "JudgePass_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "JudgePass_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExplanationJudgment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "costUsd" REAL NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExplanationJudgment_passId_fkey" FOREIGN KEY ("passId") REFERENCES "JudgePass" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ExplanationJudgment_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Assignment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'faces',
    "halfWidth" REAL,
    "scopeJson" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "perModel" INTEGER NOT NULL,
    "overlap" INTEGER NOT NULL,
    "annotatorsJson" TEXT NOT NULL,
    "goldRate" REAL NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Assignment" ("annotatorsJson", "createdAt", "goldRate", "id", "name", "overlap", "perModel", "scopeJson", "seed") SELECT "annotatorsJson", "createdAt", "goldRate", "id", "name", "overlap", "perModel", "scopeJson", "seed" FROM "Assignment";
DROP TABLE "Assignment";
ALTER TABLE "new_Assignment" RENAME TO "Assignment";
CREATE TABLE "new_AssignmentItem" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "assignmentId" TEXT NOT NULL,
    "annotator" TEXT NOT NULL,
    "imageId" TEXT,
    "outcomeId" INTEGER,
    CONSTRAINT "AssignmentItem_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AssignmentItem_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AssignmentItem_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_AssignmentItem" ("annotator", "assignmentId", "id", "imageId") SELECT "annotator", "assignmentId", "id", "imageId" FROM "AssignmentItem";
DROP TABLE "AssignmentItem";
ALTER TABLE "new_AssignmentItem" RENAME TO "AssignmentItem";
CREATE INDEX "AssignmentItem_annotator_idx" ON "AssignmentItem"("annotator");
CREATE INDEX "AssignmentItem_imageId_idx" ON "AssignmentItem"("imageId");
CREATE INDEX "AssignmentItem_outcomeId_idx" ON "AssignmentItem"("outcomeId");
CREATE UNIQUE INDEX "AssignmentItem_assignmentId_annotator_imageId_key" ON "AssignmentItem"("assignmentId", "annotator", "imageId");
CREATE UNIQUE INDEX "AssignmentItem_assignmentId_annotator_outcomeId_key" ON "AssignmentItem"("assignmentId", "annotator", "outcomeId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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

-- CreateTable
CREATE TABLE "ImageReading" (
    "imageId" TEXT NOT NULL PRIMARY KEY,
    "instrument" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "modelVersion" TEXT NOT NULL,
    "textsVersion" TEXT NOT NULL,
    "weightsSha256" TEXT NOT NULL,
    "labelRuntime" TEXT NOT NULL,
    "probsJson" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ImageReading_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "modality" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "preset" TEXT NOT NULL DEFAULT 'custom',
    "seed" INTEGER NOT NULL,
    "configJson" TEXT NOT NULL,
    "budgetUsd" REAL,
    "spentUsd" REAL NOT NULL DEFAULT 0,
    "plannedCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "suiteId" TEXT NOT NULL DEFAULT 'fact-or-fair',
    "suiteVersion" TEXT NOT NULL DEFAULT '',
    "autoLabel" BOOLEAN NOT NULL DEFAULT false,
    "labelInstrument" TEXT NOT NULL DEFAULT 'faces',
    "benchmarkVersionId" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "Run_benchmarkVersionId_fkey" FOREIGN KEY ("benchmarkVersionId") REFERENCES "BenchmarkVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("autoLabel", "benchmarkVersionId", "budgetUsd", "configJson", "createdAt", "createdById", "error", "finishedAt", "id", "modality", "name", "plannedCount", "preset", "seed", "spentUsd", "startedAt", "status", "suiteId", "suiteVersion") SELECT "autoLabel", "benchmarkVersionId", "budgetUsd", "configJson", "createdAt", "createdById", "error", "finishedAt", "id", "modality", "name", "plannedCount", "preset", "seed", "spentUsd", "startedAt", "status", "suiteId", "suiteVersion" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_status_idx" ON "Run"("status");
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");
CREATE INDEX "Run_createdById_idx" ON "Run"("createdById");
CREATE INDEX "Run_suiteId_idx" ON "Run"("suiteId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

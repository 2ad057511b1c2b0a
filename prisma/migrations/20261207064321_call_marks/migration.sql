-- AlterTable
ALTER TABLE "Run" ADD COLUMN "lastCallAt" DATETIME;

-- CreateTable
CREATE TABLE "CallMark" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "queryId" INTEGER NOT NULL,
    "runId" TEXT NOT NULL,
    "modelConfigId" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "worstUsd" REAL NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CallMark_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RunModel" (
    "runId" TEXT NOT NULL,
    "modelConfigId" TEXT NOT NULL,
    "settingsJson" TEXT NOT NULL DEFAULT '{}',
    "lostCalls" INTEGER NOT NULL DEFAULT 0,
    "lostCallsUsd" REAL NOT NULL DEFAULT 0,

    PRIMARY KEY ("runId", "modelConfigId"),
    CONSTRAINT "RunModel_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RunModel_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_RunModel" ("modelConfigId", "runId", "settingsJson") SELECT "modelConfigId", "runId", "settingsJson" FROM "RunModel";
DROP TABLE "RunModel";
ALTER TABLE "new_RunModel" RENAME TO "RunModel";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "CallMark_owner_idx" ON "CallMark"("owner");

-- CreateIndex
CREATE INDEX "CallMark_queryId_idx" ON "CallMark"("queryId");

-- CreateIndex
CREATE INDEX "CallMark_runId_idx" ON "CallMark"("runId");

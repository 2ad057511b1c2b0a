-- Suites: a run records its suite and suite version; benchmark content versions belong to a suite; a query may
-- depend on another query's answer; reviewers' verdicts on suite content items.
ALTER TABLE "BenchmarkVersion" ADD COLUMN "suiteId" TEXT NOT NULL DEFAULT 'fact-or-fair';
ALTER TABLE "Run" ADD COLUMN "suiteId" TEXT NOT NULL DEFAULT 'fact-or-fair';
ALTER TABLE "Run" ADD COLUMN "suiteVersion" TEXT NOT NULL DEFAULT '';
UPDATE "Run" SET "suiteVersion" = (SELECT "version" FROM "BenchmarkVersion" WHERE "BenchmarkVersion"."id" = "Run"."benchmarkVersionId");
CREATE INDEX "Run_suiteId_idx" ON "Run"("suiteId");

CREATE TABLE "ContentReview" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "suiteId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "note" TEXT,
    "reviewerId" TEXT,
    "reviewer" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "ContentReview_suiteId_itemId_createdAt_idx" ON "ContentReview"("suiteId", "itemId", "createdAt");

-- Query gains a self-referencing foreign key: SQLite needs the table rebuilt for that.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Query" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" TEXT NOT NULL,
    "modelConfigId" TEXT NOT NULL,
    "modality" TEXT NOT NULL,
    "test" TEXT NOT NULL,
    "context" TEXT,
    "statisticId" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "attribute" TEXT,
    "scenarioIndex" INTEGER,
    "repeatIndex" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL,
    "optionsJson" TEXT NOT NULL DEFAULT '[]',
    "identityJson" TEXT,
    "groundTruthJson" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "cacheKey" TEXT NOT NULL,
    "dependsOnId" INTEGER,
    CONSTRAINT "Query_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Query_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Query_dependsOnId_fkey" FOREIGN KEY ("dependsOnId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Query" ("id", "runId", "modelConfigId", "modality", "test", "context", "statisticId", "level", "attribute", "scenarioIndex", "repeatIndex", "prompt", "optionsJson", "identityJson", "groundTruthJson", "status", "leaseOwner", "leaseUntil", "attempts", "nextAttemptAt", "cacheKey")
SELECT "id", "runId", "modelConfigId", "modality", "test", "context", "statisticId", "level", "attribute", "scenarioIndex", "repeatIndex", "prompt", "optionsJson", "identityJson", "groundTruthJson", "status", "leaseOwner", "leaseUntil", "attempts", "nextAttemptAt", "cacheKey" FROM "Query";
DROP TABLE "Query";
ALTER TABLE "new_Query" RENAME TO "Query";
CREATE INDEX "Query_runId_status_idx" ON "Query"("runId", "status");
CREATE INDEX "Query_runId_modelConfigId_status_idx" ON "Query"("runId", "modelConfigId", "status");
CREATE INDEX "Query_runId_modelConfigId_test_context_idx" ON "Query"("runId", "modelConfigId", "test", "context");
CREATE INDEX "Query_runId_statisticId_level_idx" ON "Query"("runId", "statisticId", "level");
CREATE INDEX "Query_status_leaseUntil_idx" ON "Query"("status", "leaseUntil");
CREATE INDEX "Query_dependsOnId_idx" ON "Query"("dependsOnId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

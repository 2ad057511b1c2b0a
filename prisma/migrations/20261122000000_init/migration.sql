-- CreateTable
CREATE TABLE "BenchmarkVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "version" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "contentJson" TEXT NOT NULL,
    "loadedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ModelConfig" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "modality" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "baseUrl" TEXT,
    "apiKeyEnv" TEXT,
    "paramsJson" TEXT NOT NULL DEFAULT '{}',
    "priceInputPer1k" REAL NOT NULL DEFAULT 0,
    "priceOutputPer1k" REAL NOT NULL DEFAULT 0,
    "pricePerImage" REAL NOT NULL DEFAULT 0,
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Run" (
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
    "benchmarkVersionId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "Run_benchmarkVersionId_fkey" FOREIGN KEY ("benchmarkVersionId") REFERENCES "BenchmarkVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunModel" (
    "runId" TEXT NOT NULL,
    "modelConfigId" TEXT NOT NULL,

    PRIMARY KEY ("runId", "modelConfigId"),
    CONSTRAINT "RunModel_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RunModel_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Query" (
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
    CONSTRAINT "Query_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Query_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Outcome" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "queryId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "rawText" TEXT,
    "parsedLetter" TEXT,
    "gender" TEXT,
    "race" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "attemptsJson" TEXT NOT NULL DEFAULT '[]',
    "latencyMs" INTEGER,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Outcome_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ResponseCache" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "rawText" TEXT,
    "imageSha256" TEXT,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Image" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT,
    "queryId" INTEGER,
    "modelConfigId" TEXT NOT NULL,
    "test" TEXT NOT NULL,
    "statisticId" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "originalName" TEXT,
    "labelStatus" TEXT NOT NULL DEFAULT 'unlabelled',
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Image_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Image_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Image_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Face" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "imageId" TEXT NOT NULL,
    "x1" REAL NOT NULL,
    "y1" REAL NOT NULL,
    "x2" REAL NOT NULL,
    "y2" REAL NOT NULL,
    "detectorScore" REAL,
    "source" TEXT NOT NULL,
    "classifierModel" TEXT,
    "classifierVersion" TEXT,
    "raceProbsJson" TEXT,
    "genderProbsJson" TEXT,
    "ageProbsJson" TEXT,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Face_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Annotation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "faceId" INTEGER NOT NULL,
    "annotator" TEXT NOT NULL,
    "gender" TEXT,
    "race" TEXT,
    "notAFace" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Annotation_faceId_fkey" FOREIGN KEY ("faceId") REFERENCES "Face" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "BenchmarkVersion_version_key" ON "BenchmarkVersion"("version");

-- CreateIndex
CREATE UNIQUE INDEX "BenchmarkVersion_sha256_key" ON "BenchmarkVersion"("sha256");

-- CreateIndex
CREATE UNIQUE INDEX "ModelConfig_slug_key" ON "ModelConfig"("slug");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");

-- CreateIndex
CREATE INDEX "Query_runId_status_idx" ON "Query"("runId", "status");

-- CreateIndex
CREATE INDEX "Query_runId_modelConfigId_test_context_idx" ON "Query"("runId", "modelConfigId", "test", "context");

-- CreateIndex
CREATE INDEX "Query_runId_statisticId_level_idx" ON "Query"("runId", "statisticId", "level");

-- CreateIndex
CREATE INDEX "Query_status_leaseUntil_idx" ON "Query"("status", "leaseUntil");

-- CreateIndex
CREATE UNIQUE INDEX "Outcome_queryId_key" ON "Outcome"("queryId");

-- CreateIndex
CREATE INDEX "Outcome_status_idx" ON "Outcome"("status");

-- CreateIndex
CREATE INDEX "Image_runId_labelStatus_idx" ON "Image"("runId", "labelStatus");

-- CreateIndex
CREATE INDEX "Image_modelConfigId_statisticId_level_idx" ON "Image"("modelConfigId", "statisticId", "level");

-- CreateIndex
CREATE INDEX "Image_sha256_idx" ON "Image"("sha256");

-- CreateIndex
CREATE INDEX "Face_imageId_idx" ON "Face"("imageId");

-- CreateIndex
CREATE INDEX "Annotation_faceId_annotator_createdAt_idx" ON "Annotation"("faceId", "annotator", "createdAt");

-- CreateIndex
CREATE INDEX "Annotation_annotator_idx" ON "Annotation"("annotator");


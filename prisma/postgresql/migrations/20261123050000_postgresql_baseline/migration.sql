-- CreateTable
CREATE TABLE "BenchmarkVersion" (
    "id" TEXT NOT NULL,
    "suiteId" TEXT NOT NULL DEFAULT 'fact-or-fair',
    "version" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "contentJson" TEXT NOT NULL,
    "loadedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BenchmarkVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelConfig" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "modality" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "baseUrl" TEXT,
    "apiKeyEnv" TEXT,
    "paramsJson" TEXT NOT NULL DEFAULT '{}',
    "priceInputPer1k" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "priceOutputPer1k" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "pricePerImage" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "createdById" TEXT,
    "updatedById" TEXT,

    CONSTRAINT "ModelConfig_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "modality" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "preset" TEXT NOT NULL DEFAULT 'custom',
    "seed" INTEGER NOT NULL,
    "configJson" TEXT NOT NULL,
    "budgetUsd" DOUBLE PRECISION,
    "spentUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "plannedCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "suiteId" TEXT NOT NULL DEFAULT 'fact-or-fair',
    "suiteVersion" TEXT NOT NULL DEFAULT '',
    "benchmarkVersionId" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunModel" (
    "runId" TEXT NOT NULL,
    "modelConfigId" TEXT NOT NULL,
    "settingsJson" TEXT NOT NULL DEFAULT '{}',

    CONSTRAINT "RunModel_pkey" PRIMARY KEY ("runId","modelConfigId")
);

-- CreateTable
CREATE TABLE "Query" (
    "id" SERIAL NOT NULL,
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
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "cacheKey" TEXT NOT NULL,
    "dependsOnId" INTEGER,

    CONSTRAINT "Query_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Outcome" (
    "id" SERIAL NOT NULL,
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
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Outcome_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ResponseCache" (
    "key" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "rawText" TEXT,
    "imageSha256" TEXT,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ResponseCache_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Image" (
    "id" TEXT NOT NULL,
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
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Image_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Face" (
    "id" SERIAL NOT NULL,
    "imageId" TEXT NOT NULL,
    "x1" DOUBLE PRECISION NOT NULL,
    "y1" DOUBLE PRECISION NOT NULL,
    "x2" DOUBLE PRECISION NOT NULL,
    "y2" DOUBLE PRECISION NOT NULL,
    "detectorScore" DOUBLE PRECISION,
    "source" TEXT NOT NULL,
    "classifierModel" TEXT,
    "classifierVersion" TEXT,
    "raceProbsJson" TEXT,
    "genderProbsJson" TEXT,
    "ageProbsJson" TEXT,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "createdBy" TEXT,
    "deletedBy" TEXT,
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Face_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Annotation" (
    "id" SERIAL NOT NULL,
    "faceId" INTEGER NOT NULL,
    "annotator" TEXT NOT NULL,
    "gender" TEXT,
    "race" TEXT,
    "notAFace" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Annotation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Assignment" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scopeJson" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "perModel" INTEGER NOT NULL,
    "overlap" INTEGER NOT NULL,
    "annotatorsJson" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AssignmentItem" (
    "id" SERIAL NOT NULL,
    "assignmentId" TEXT NOT NULL,
    "annotator" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,

    CONSTRAINT "AssignmentItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScoreCache" (
    "key" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "json" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScoreCache_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "ContentReview" (
    "id" SERIAL NOT NULL,
    "suiteId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "note" TEXT,
    "reviewerId" TEXT,
    "reviewer" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentReview_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkerStatus" (
    "owner" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "runsJson" TEXT NOT NULL DEFAULT '[]',
    "lastError" TEXT,
    "lastErrorAt" TIMESTAMP(3),
    "stoppedAt" TIMESTAMP(3),

    CONSTRAINT "WorkerStatus_pkey" PRIMARY KEY ("owner")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "spendingLimitUsd" DOUBLE PRECISION,
    "placeholder" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "userId" TEXT NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" TIMESTAMP(3),
    "refreshTokenExpiresAt" TIMESTAMP(3),
    "scope" TEXT,
    "password" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimit" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "lastRequest" BIGINT NOT NULL,

    CONSTRAINT "RateLimit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "email" TEXT,
    "role" TEXT,
    "userId" TEXT,
    "createdById" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "userId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "detailsJson" TEXT NOT NULL DEFAULT '{}',
    "ip" TEXT,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "Run_createdById_idx" ON "Run"("createdById");

-- CreateIndex
CREATE INDEX "Run_suiteId_idx" ON "Run"("suiteId");

-- CreateIndex
CREATE INDEX "Query_runId_status_idx" ON "Query"("runId", "status");

-- CreateIndex
CREATE INDEX "Query_runId_modelConfigId_status_idx" ON "Query"("runId", "modelConfigId", "status");

-- CreateIndex
CREATE INDEX "Query_runId_modelConfigId_test_context_idx" ON "Query"("runId", "modelConfigId", "test", "context");

-- CreateIndex
CREATE INDEX "Query_runId_statisticId_level_idx" ON "Query"("runId", "statisticId", "level");

-- CreateIndex
CREATE INDEX "Query_status_leaseUntil_idx" ON "Query"("status", "leaseUntil");

-- CreateIndex
CREATE INDEX "Query_dependsOnId_idx" ON "Query"("dependsOnId");

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

-- CreateIndex
CREATE INDEX "AssignmentItem_annotator_idx" ON "AssignmentItem"("annotator");

-- CreateIndex
CREATE INDEX "AssignmentItem_imageId_idx" ON "AssignmentItem"("imageId");

-- CreateIndex
CREATE UNIQUE INDEX "AssignmentItem_assignmentId_annotator_imageId_key" ON "AssignmentItem"("assignmentId", "annotator", "imageId");

-- CreateIndex
CREATE INDEX "ScoreCache_runId_kind_idx" ON "ScoreCache"("runId", "kind");

-- CreateIndex
CREATE INDEX "ContentReview_suiteId_itemId_createdAt_idx" ON "ContentReview"("suiteId", "itemId", "createdAt");

-- CreateIndex
CREATE INDEX "WorkerStatus_heartbeatAt_idx" ON "WorkerStatus"("heartbeatAt");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Session_token_key" ON "Session"("token");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE INDEX "Verification_identifier_idx" ON "Verification"("identifier");

-- CreateIndex
CREATE UNIQUE INDEX "RateLimit_key_key" ON "RateLimit"("key");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- CreateIndex
CREATE INDEX "Invitation_expiresAt_idx" ON "Invitation"("expiresAt");

-- CreateIndex
CREATE INDEX "AuditLog_at_idx" ON "AuditLog"("at");

-- CreateIndex
CREATE INDEX "AuditLog_userId_at_idx" ON "AuditLog"("userId", "at");

-- CreateIndex
CREATE INDEX "AuditLog_action_at_idx" ON "AuditLog"("action", "at");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_benchmarkVersionId_fkey" FOREIGN KEY ("benchmarkVersionId") REFERENCES "BenchmarkVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunModel" ADD CONSTRAINT "RunModel_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunModel" ADD CONSTRAINT "RunModel_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Query" ADD CONSTRAINT "Query_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Query" ADD CONSTRAINT "Query_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Query" ADD CONSTRAINT "Query_dependsOnId_fkey" FOREIGN KEY ("dependsOnId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Outcome" ADD CONSTRAINT "Outcome_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Image" ADD CONSTRAINT "Image_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Image" ADD CONSTRAINT "Image_queryId_fkey" FOREIGN KEY ("queryId") REFERENCES "Query"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Image" ADD CONSTRAINT "Image_modelConfigId_fkey" FOREIGN KEY ("modelConfigId") REFERENCES "ModelConfig"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Face" ADD CONSTRAINT "Face_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Annotation" ADD CONSTRAINT "Annotation_faceId_fkey" FOREIGN KEY ("faceId") REFERENCES "Face"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AssignmentItem" ADD CONSTRAINT "AssignmentItem_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AssignmentItem" ADD CONSTRAINT "AssignmentItem_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScoreCache" ADD CONSTRAINT "ScoreCache_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

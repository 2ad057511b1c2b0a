-- CreateTable
CREATE TABLE "ContentSetVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "setId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "contentJson" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "createdById" TEXT,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "approvedBy" TEXT,
    "approvedAt" DATETIME,
    "retiredBy" TEXT,
    "retiredAt" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "ContentSetVersion_sha256_key" ON "ContentSetVersion"("sha256");

-- CreateIndex
CREATE INDEX "ContentSetVersion_setId_createdAt_idx" ON "ContentSetVersion"("setId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ContentSetVersion_setId_version_key" ON "ContentSetVersion"("setId", "version");

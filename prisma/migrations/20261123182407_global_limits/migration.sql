-- AlterTable
ALTER TABLE "ModelConfig" ADD COLUMN "requestsPerMinute" INTEGER;
ALTER TABLE "ModelConfig" ADD COLUMN "tokensPerMinute" INTEGER;

-- CreateTable
CREATE TABLE "ModelSlotLease" (
    "modelConfigId" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "granted" INTEGER NOT NULL,
    "wanted" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL,

    PRIMARY KEY ("modelConfigId", "owner")
);

-- CreateIndex
CREATE INDEX "ModelSlotLease_modelConfigId_expiresAt_idx" ON "ModelSlotLease"("modelConfigId", "expiresAt");

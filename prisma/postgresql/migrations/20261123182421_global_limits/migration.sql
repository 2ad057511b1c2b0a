-- AlterTable
ALTER TABLE "ModelConfig" ADD COLUMN     "requestsPerMinute" INTEGER,
ADD COLUMN     "tokensPerMinute" INTEGER;

-- CreateTable
CREATE TABLE "ModelSlotLease" (
    "modelConfigId" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "granted" INTEGER NOT NULL,
    "wanted" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ModelSlotLease_pkey" PRIMARY KEY ("modelConfigId","owner")
);

-- CreateIndex
CREATE INDEX "ModelSlotLease_modelConfigId_expiresAt_idx" ON "ModelSlotLease"("modelConfigId", "expiresAt");

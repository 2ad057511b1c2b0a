-- CreateTable
CREATE TABLE "BudgetGrant" (
    "id" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "usd" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BudgetGrant_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BudgetGrant_runId_idx" ON "BudgetGrant"("runId");

-- CreateIndex
CREATE INDEX "BudgetGrant_userId_idx" ON "BudgetGrant"("userId");

-- AddForeignKey
ALTER TABLE "BudgetGrant" ADD CONSTRAINT "BudgetGrant_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

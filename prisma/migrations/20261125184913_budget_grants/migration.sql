-- CreateTable
CREATE TABLE "BudgetGrant" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "usd" REAL NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "BudgetGrant_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "BudgetGrant_runId_idx" ON "BudgetGrant"("runId");

-- CreateIndex
CREATE INDEX "BudgetGrant_userId_idx" ON "BudgetGrant"("userId");

-- CreateTable
CREATE TABLE "LogEntry" (
    "index" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "leafHash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "models" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "LogEntry_leafHash_key" ON "LogEntry"("leafHash");

-- CreateIndex
CREATE UNIQUE INDEX "LogEntry_runId_key" ON "LogEntry"("runId");

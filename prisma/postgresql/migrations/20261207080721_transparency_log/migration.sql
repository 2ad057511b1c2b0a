-- CreateTable
CREATE TABLE "LogEntry" (
    "index" INTEGER NOT NULL,
    "leafHash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "models" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LogEntry_pkey" PRIMARY KEY ("index")
);

-- CreateIndex
CREATE UNIQUE INDEX "LogEntry_leafHash_key" ON "LogEntry"("leafHash");

-- CreateIndex
CREATE UNIQUE INDEX "LogEntry_runId_key" ON "LogEntry"("runId");

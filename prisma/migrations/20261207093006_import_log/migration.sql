-- DropIndex
DROP INDEX "LogEntry_runId_key";

-- CreateIndex
CREATE INDEX "LogEntry_runId_kind_idx" ON "LogEntry"("runId", "kind");

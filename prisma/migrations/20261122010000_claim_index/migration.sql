-- CreateIndex
CREATE INDEX "Query_runId_modelConfigId_status_idx" ON "Query"("runId", "modelConfigId", "status");

-- A run's progress (counts per model, test, context and status, read by every live page and poller) from the index
-- alone: status joins the end of the (run, model, test, context) index, which still serves its prefixes.
-- DropIndex
DROP INDEX "Query_runId_modelConfigId_test_context_idx";

-- CreateIndex
CREATE INDEX "Query_runId_modelConfigId_test_context_status_idx" ON "Query"("runId", "modelConfigId", "test", "context", "status");

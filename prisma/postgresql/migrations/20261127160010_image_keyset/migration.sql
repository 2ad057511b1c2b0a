-- Keyset paging of a run's images (GET /api/runs/:id/images): by id within the run, with or without a label status.
-- DropIndex
DROP INDEX "Image_runId_labelStatus_idx";

-- CreateIndex
CREATE INDEX "Image_runId_labelStatus_id_idx" ON "Image"("runId", "labelStatus", "id");

-- CreateIndex
CREATE INDEX "Image_runId_id_idx" ON "Image"("runId", "id");

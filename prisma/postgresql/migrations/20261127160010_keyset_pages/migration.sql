-- Keyset paging (never by offset): a run's images by id within the run, with or without a label status.
-- DropIndex
DROP INDEX "Image_runId_labelStatus_idx";

-- CreateIndex
CREATE INDEX "Image_runId_labelStatus_id_idx" ON "Image"("runId", "labelStatus", "id");

-- CreateIndex
CREATE INDEX "Image_runId_id_idx" ON "Image"("runId", "id");

-- Keyset paging of the webhook delivery log (newest first).
-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_id_idx" ON "WebhookDelivery"("createdAt", "id");

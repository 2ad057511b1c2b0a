-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AssignmentItem" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "assignmentId" TEXT NOT NULL,
    "annotator" TEXT NOT NULL,
    "imageId" TEXT,
    "outcomeId" INTEGER,
    "gold" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "AssignmentItem_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AssignmentItem_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AssignmentItem_outcomeId_fkey" FOREIGN KEY ("outcomeId") REFERENCES "Outcome" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_AssignmentItem" ("annotator", "assignmentId", "id", "imageId", "outcomeId") SELECT "annotator", "assignmentId", "id", "imageId", "outcomeId" FROM "AssignmentItem";
DROP TABLE "AssignmentItem";
ALTER TABLE "new_AssignmentItem" RENAME TO "AssignmentItem";
CREATE INDEX "AssignmentItem_annotator_idx" ON "AssignmentItem"("annotator");
CREATE INDEX "AssignmentItem_imageId_idx" ON "AssignmentItem"("imageId");
CREATE INDEX "AssignmentItem_outcomeId_idx" ON "AssignmentItem"("outcomeId");
CREATE UNIQUE INDEX "AssignmentItem_assignmentId_annotator_imageId_key" ON "AssignmentItem"("assignmentId", "annotator", "imageId");
CREATE UNIQUE INDEX "AssignmentItem_assignmentId_annotator_outcomeId_key" ON "AssignmentItem"("assignmentId", "annotator", "outcomeId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

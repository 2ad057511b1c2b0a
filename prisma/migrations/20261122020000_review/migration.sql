-- AlterTable
ALTER TABLE "Face" ADD COLUMN "createdBy" TEXT;
ALTER TABLE "Face" ADD COLUMN "deletedBy" TEXT;
ALTER TABLE "Face" ADD COLUMN "deletedAt" DATETIME;

-- CreateTable
CREATE TABLE "Assignment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "scopeJson" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "perModel" INTEGER NOT NULL,
    "overlap" INTEGER NOT NULL,
    "annotatorsJson" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "AssignmentItem" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "assignmentId" TEXT NOT NULL,
    "annotator" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,
    CONSTRAINT "AssignmentItem_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AssignmentItem_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "AssignmentItem_assignmentId_annotator_imageId_key" ON "AssignmentItem"("assignmentId", "annotator", "imageId");

-- CreateIndex
CREATE INDEX "AssignmentItem_annotator_idx" ON "AssignmentItem"("annotator");

-- CreateIndex
CREATE INDEX "AssignmentItem_imageId_idx" ON "AssignmentItem"("imageId");

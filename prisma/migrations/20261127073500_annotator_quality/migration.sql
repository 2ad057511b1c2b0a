-- CreateTable
CREATE TABLE "GoldLabel" (
    "faceId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "labelsJson" TEXT NOT NULL,
    "markedBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GoldLabel_faceId_fkey" FOREIGN KEY ("faceId") REFERENCES "Face" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AnnotatorExclusion" (
    "annotator" TEXT NOT NULL PRIMARY KEY,
    "excludedBy" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN "goldRate" REAL NOT NULL DEFAULT 0;

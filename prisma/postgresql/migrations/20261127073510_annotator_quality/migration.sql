-- CreateTable
CREATE TABLE "GoldLabel" (
    "faceId" INTEGER NOT NULL,
    "labelsJson" TEXT NOT NULL,
    "markedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GoldLabel_pkey" PRIMARY KEY ("faceId")
);

-- CreateTable
CREATE TABLE "AnnotatorExclusion" (
    "annotator" TEXT NOT NULL,
    "excludedBy" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnotatorExclusion_pkey" PRIMARY KEY ("annotator")
);

-- AddForeignKey
ALTER TABLE "GoldLabel" ADD CONSTRAINT "GoldLabel_faceId_fkey" FOREIGN KEY ("faceId") REFERENCES "Face"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN "goldRate" DOUBLE PRECISION NOT NULL DEFAULT 0;

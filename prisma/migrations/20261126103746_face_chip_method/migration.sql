-- AlterTable
ALTER TABLE "Face" ADD COLUMN "chipMethod" TEXT;
ALTER TABLE "Face" ADD COLUMN "landmarkerModel" TEXT;
ALTER TABLE "Face" ADD COLUMN "landmarkerVersion" TEXT;

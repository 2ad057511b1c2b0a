-- AlterTable
ALTER TABLE "Face" ADD COLUMN     "chipMethod" TEXT,
ADD COLUMN     "landmarkerModel" TEXT,
ADD COLUMN     "landmarkerVersion" TEXT;

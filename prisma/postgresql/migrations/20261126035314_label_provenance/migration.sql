-- AlterTable
ALTER TABLE "Face" ADD COLUMN     "detectorModel" TEXT,
ADD COLUMN     "detectorVersion" TEXT,
ADD COLUMN     "labelRuntime" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "autoLabel" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "WorkerStatus" ADD COLUMN     "labeller" TEXT;

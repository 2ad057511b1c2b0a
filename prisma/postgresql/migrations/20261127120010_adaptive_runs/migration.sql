-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "adaptiveJson" TEXT,
ADD COLUMN     "wavesReleased" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Query" ADD COLUMN     "wave" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "labelInstrument" TEXT NOT NULL DEFAULT 'faces';

-- CreateTable
CREATE TABLE "ImageReading" (
    "imageId" TEXT NOT NULL,
    "instrument" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "modelVersion" TEXT NOT NULL,
    "textsVersion" TEXT NOT NULL,
    "weightsSha256" TEXT NOT NULL,
    "labelRuntime" TEXT NOT NULL,
    "probsJson" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ImageReading_pkey" PRIMARY KEY ("imageId")
);

-- AddForeignKey
ALTER TABLE "ImageReading" ADD CONSTRAINT "ImageReading_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image"("id") ON DELETE CASCADE ON UPDATE CASCADE;

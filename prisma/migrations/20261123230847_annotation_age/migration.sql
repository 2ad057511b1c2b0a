-- AlterTable
ALTER TABLE "Annotation" ADD COLUMN "age" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "rulesJson" TEXT;

-- AlterTable
ALTER TABLE "AssignmentItem" ADD COLUMN     "gold" BOOLEAN NOT NULL DEFAULT false;

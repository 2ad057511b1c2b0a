-- Who registered a model and who last changed it.
ALTER TABLE "ModelConfig" ADD COLUMN "createdById" TEXT;
ALTER TABLE "ModelConfig" ADD COLUMN "updatedById" TEXT;

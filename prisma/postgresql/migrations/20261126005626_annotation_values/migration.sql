-- Label attributes as data: an annotation keeps whether it is a face, and each attribute's class is a row of
-- AnnotationValue. Every existing label is copied before the columns are dropped.
-- CreateTable
CREATE TABLE "AnnotationValue" (
    "annotationId" INTEGER NOT NULL,
    "attribute" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "AnnotationValue_pkey" PRIMARY KEY ("annotationId","attribute")
);

-- Keep every label: each set attribute of each annotation becomes a value row (before the columns go).
INSERT INTO "AnnotationValue" ("annotationId", "attribute", "value") SELECT "id", 'gender', "gender" FROM "Annotation" WHERE "gender" IS NOT NULL;
INSERT INTO "AnnotationValue" ("annotationId", "attribute", "value") SELECT "id", 'race', "race" FROM "Annotation" WHERE "race" IS NOT NULL;
INSERT INTO "AnnotationValue" ("annotationId", "attribute", "value") SELECT "id", 'age', "age" FROM "Annotation" WHERE "age" IS NOT NULL;

-- AlterTable
ALTER TABLE "Annotation" DROP COLUMN "age",
DROP COLUMN "gender",
DROP COLUMN "race";

-- CreateIndex
CREATE INDEX "AnnotationValue_attribute_value_idx" ON "AnnotationValue"("attribute", "value");

-- AddForeignKey
ALTER TABLE "AnnotationValue" ADD CONSTRAINT "AnnotationValue_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

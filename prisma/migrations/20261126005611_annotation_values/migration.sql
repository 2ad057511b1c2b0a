-- Label attributes as data: an annotation keeps whether it is a face, and each attribute's class is a row of
-- AnnotationValue. Every existing label is copied before the columns are dropped.
-- CreateTable
CREATE TABLE "AnnotationValue" (
    "annotationId" INTEGER NOT NULL,
    "attribute" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    PRIMARY KEY ("annotationId", "attribute"),
    CONSTRAINT "AnnotationValue_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Keep every label: each set attribute of each annotation becomes a value row (before the columns go).
INSERT INTO "AnnotationValue" ("annotationId", "attribute", "value") SELECT "id", 'gender', "gender" FROM "Annotation" WHERE "gender" IS NOT NULL;
INSERT INTO "AnnotationValue" ("annotationId", "attribute", "value") SELECT "id", 'race', "race" FROM "Annotation" WHERE "race" IS NOT NULL;
INSERT INTO "AnnotationValue" ("annotationId", "attribute", "value") SELECT "id", 'age', "age" FROM "Annotation" WHERE "age" IS NOT NULL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Annotation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "faceId" INTEGER NOT NULL,
    "annotator" TEXT NOT NULL,
    "notAFace" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Annotation_faceId_fkey" FOREIGN KEY ("faceId") REFERENCES "Face" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Annotation" ("annotator", "createdAt", "faceId", "id", "notAFace") SELECT "annotator", "createdAt", "faceId", "id", "notAFace" FROM "Annotation";
DROP TABLE "Annotation";
ALTER TABLE "new_Annotation" RENAME TO "Annotation";
CREATE INDEX "Annotation_faceId_annotator_createdAt_idx" ON "Annotation"("faceId", "annotator", "createdAt");
CREATE INDEX "Annotation_annotator_idx" ON "Annotation"("annotator");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AnnotationValue_attribute_value_idx" ON "AnnotationValue"("attribute", "value");

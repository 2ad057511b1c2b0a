// Fixing the detector: a face it missed drawn by a reviewer, a false one deleted (and restored), the whole-image view
// and the images where it found no face at all.
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { itemTitle, suiteOfFace } from "../../suites/faces";
import { assertRunClassifier, boxWithin, probabilitiesSchema } from "../labelling/leases";
import { chipMethodSchema, isAlignedChip, labelRuntimeSchema, modelRefSchema } from "../../faces/provenance";
import { runClassifier } from "../../faces/run-provenance";
import { DomainError } from "../../core/errors";
import { annotatorSchema, facesByIds, reviewScopeSchema, scopeWhere } from "./faces";

const boxSchema = z
  .object({ x1: z.number().finite(), y1: z.number().finite(), x2: z.number().finite(), y2: z.number().finite() })
  .refine((b) => b.x2 > b.x1 && b.y2 > b.y1, "a box needs x2 > x1 and y2 > y1");

export const addFaceSchema = z.object({ annotator: annotatorSchema, imageId: z.string().min(1).max(40), box: boxSchema });

/** A face the detector missed, drawn by a reviewer (clamped to the image; at least 8 px a side). */
export async function addFace(prisma: PrismaClient, input: z.input<typeof addFaceSchema>) {
  const { annotator, imageId, box } = addFaceSchema.parse(input);
  const image = await prisma.image.findUnique({ where: { id: imageId }, select: { width: true, height: true } });
  if (!image) throw new DomainError("not_found", "image not found");
  const b = boxWithin(box, image.width, image.height);
  if (b.x2 - b.x1 < 8 || b.y2 - b.y1 < 8) throw new DomainError("invalid", "the box must be at least 8 × 8 pixels inside the image");
  const face = await prisma.face.create({ data: { imageId, ...b, source: "manual", createdBy: annotator } });
  return (await facesByIds(prisma, [face.id], annotator))[0];
}

export const updateFaceSchema = z.union([
  z.object({ annotator: annotatorSchema, deleted: z.boolean() }),
  z
    .object({
      annotator: annotatorSchema,
      classifier: modelRefSchema,
      /** how the browser cut the face (aligned on its landmarks when the landmarker is installed) */
      chip: chipMethodSchema.default("square"),
      landmarker: modelRefSchema.optional(),
      runtime: labelRuntimeSchema,
      probabilities: probabilitiesSchema,
    })
    .refine((u) => isAlignedChip(u.chip) === !!u.landmarker, { path: ["landmarker"], message: "aligned chips name their landmarker" }),
]);

/** Deletes (or restores) a detection, or stores the browser classifier's output for a hand-drawn face. */
export async function updateFace(prisma: PrismaClient, faceId: number, input: z.input<typeof updateFaceSchema>) {
  const u = updateFaceSchema.parse(input);
  const face = await prisma.face.findUnique({
    where: { id: faceId },
    select: { source: true, raceProbsJson: true, createdBy: true, image: { select: { runId: true } } },
  });
  if (!face) throw new DomainError("not_found", "face not found");
  if ("deleted" in u) {
    await prisma.face.update({
      where: { id: faceId },
      data: u.deleted ? { deleted: true, deletedBy: u.annotator, deletedAt: new Date() } : { deleted: false, deletedBy: null, deletedAt: null },
    });
  } else {
    // Detector faces keep the pipeline's output; only hand-drawn faces take a classification from the review page.
    if (face.source !== "manual") throw new DomainError("conflict", "only hand-drawn faces are classified from the review page");
    // The classification is part of what its reviewer drew: nobody else replaces it (they label the face instead).
    if (face.createdBy !== u.annotator) throw new DomainError("forbidden", "only the reviewer who drew this face may store its classification");
    if (face.image.runId) await assertRunClassifier(prisma, face.image.runId, u.classifier, u.chip);
    await prisma.face.update({
      where: { id: faceId },
      data: {
        classifierModel: u.classifier.model,
        classifierVersion: u.classifier.sha256,
        labelRuntime: u.runtime,
        chipMethod: u.chip,
        landmarkerModel: u.landmarker?.model ?? null,
        landmarkerVersion: u.landmarker?.sha256 ?? null,
        raceProbsJson: JSON.stringify(u.probabilities.race),
        genderProbsJson: JSON.stringify(u.probabilities.gender),
        ageProbsJson: JSON.stringify(u.probabilities.age),
      },
    });
  }
  return (await facesByIds(prisma, [faceId], u.annotator))[0];
}

/** An image with every face (deleted ones too, so a deletion can be undone) for the whole-image view. */
export async function reviewImage(prisma: PrismaClient, imageId: string, annotator?: string) {
  const image = await prisma.image.findUnique({
    where: { id: imageId },
    select: { id: true, runId: true, width: true, height: true, faces: { select: { id: true }, orderBy: { id: "asc" } } },
  });
  if (!image) throw new DomainError("not_found", "image not found");
  // How the run's faces were cut, so a hand-drawn face is classified the same way (null: nothing classified yet).
  const current = image.runId ? await runClassifier(prisma, image.runId) : null;
  return {
    id: image.id,
    url: `/api/images/${image.id}`,
    width: image.width,
    height: image.height,
    chip: current?.chip ?? null,
    faces: await facesByIds(
      prisma,
      image.faces.map((f) => f.id),
      annotator,
    ),
  };
}

export const facelessFilterSchema = reviewScopeSchema.extend({
  annotator: annotatorSchema.optional(),
  take: z.coerce.number().int().min(1).max(200).default(24),
});

/**
 * Images with no face (left) in the scope — the detector found none, a reviewer deleted them all, or no classifier
 * has run yet — so a reviewer can draw the faces the pipeline missed.
 */
export async function facelessImages(prisma: PrismaClient, input: z.input<typeof facelessFilterSchema>) {
  const f = facelessFilterSchema.parse(input);
  const where = {
    ...scopeWhere({ ...f, state: "all", pageSize: 1, includeDeleted: false }).image,
    labelStatus: { not: "leased" },
    faces: { none: { deleted: false } },
  };
  const [total, rows] = await Promise.all([
    prisma.image.count({ where }),
    prisma.image.findMany({
      where,
      select: {
        id: true,
        width: true,
        height: true,
        labelStatus: true,
        statisticId: true,
        level: true,
        test: true,
        modelConfig: { select: { label: true } },
        run: { select: { suiteId: true } },
      },
      orderBy: { id: "asc" },
      take: f.take,
    }),
  ]);
  return {
    total,
    images: rows.map(({ run, modelConfig, ...r }) => ({
      ...r,
      url: `/api/images/${r.id}`,
      model: modelConfig.label,
      item: itemTitle(suiteOfFace(run?.suiteId), r.statisticId),
    })),
  };
}

// Human review of face labels: the review queue, annotators' labels (append-only), detection fixes, assignments,
// agreement and the detector report. Validation at the boundary (zod); multi-row writes in transactions.
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { ANNOTATION_ROW_SELECT } from "./results";
import { FAIRFACE_RACES } from "../faces/labels";
import { invalidLabel } from "../review/label-set";
import { itemTitle, suiteOfFace, suitePrediction } from "../suites/faces";
import { groupItems } from "../suites/filters";
import type { AnySuite } from "../suites";
import type { FaceAttribute } from "../suites/types";
import { squareCrop } from "../faces/image";
import { consensus, currentLabels, dealAssignment, type AnnotationRow, type AnnotatorLabel, type Consensus } from "../review";
import { assertRunClassifier, boxWithin, probabilitiesSchema } from "./labelling";
import { labelRuntimeSchema, modelRefSchema } from "../faces/provenance";
import { displayNames } from "../auth/names";
import { DomainError } from "../core/errors";

/** A simple name-based identity (roles come later): letters, digits, spaces and . _ ' - */
const annotatorSchema = z
  .string()
  .trim()
  .min(1, "annotator name required")
  .max(40, "annotator name: at most 40 characters")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._'-]*$/u, "annotator name: letters, digits, spaces and . _ ' - only");

const reviewStates = ["all", "unreviewed", "unreviewed-any", "reviewed", "disagreement"] as const;

export const reviewFilterSchema = z.object({
  runId: z.string().max(40).optional(),
  model: z.string().max(80).optional(),
  /** a suite's own coordinates (Suite.reviewFilters): plain values compared with the image's columns */
  suite: z.string().max(64).optional(),
  statisticId: z.string().max(80).optional(),
  level: z.string().max(40).optional(),
  test: z.string().max(40).optional(),
  /** the image's query's context (DoFaiR: augmentation; "none": without one) and requested attribute (FAIntbench) */
  context: z.string().max(40).optional(),
  attribute: z.string().max(40).optional(),
  /** a suite's item set (a "group" filter, e.g. the prompts requesting one class); needs `suite` */
  group: z.string().max(80).optional(),
  assignmentId: z.string().max(40).optional(),
  /** all | unreviewed (by me) | unreviewed-any (by nobody) | reviewed (by me) | disagreement (between annotators) */
  state: z.enum(reviewStates).default("all"),
  /** only faces whose gender or race confidence is below this */
  confidenceBelow: z.coerce.number().min(0.3).max(1).optional(),
  /** whose labels "mine" and the unreviewed/reviewed states refer to */
  annotator: annotatorSchema.optional(),
  after: z.coerce.number().int().min(0).optional(),
  before: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(200).default(48),
  includeDeleted: z.stringbool().default(false),
});
export type ReviewFilter = z.input<typeof reviewFilterSchema>;

const FACE_INCLUDE = {
  annotations: { select: ANNOTATION_ROW_SELECT },
  image: {
    select: {
      id: true,
      width: true,
      height: true,
      test: true,
      statisticId: true,
      level: true,
      runId: true,
      originalName: true,
      labelStatus: true,
      run: { select: { name: true, suiteId: true } },
      modelConfig: { select: { slug: true, label: true } },
    },
  },
} as const;

type FaceRow = {
  id: number;
  imageId: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  detectorScore: number | null;
  source: string;
  deleted: boolean;
  createdBy: string | null;
  deletedBy: string | null;
  raceProbsJson: string | null;
  genderProbsJson: string | null;
  ageProbsJson: string | null;
  classifierModel: string | null;
  annotations: AnnotationRow[];
  image: {
    id: string;
    width: number;
    height: number;
    test: string;
    statisticId: string;
    level: string;
    runId: string | null;
    originalName: string | null;
    labelStatus: string;
    run: { name: string; suiteId: string } | null;
    modelConfig: { slug: string; label: string };
  };
};

/**
 * The model's prediction for a face in its suite's classes (FACT-OR-FAIR: the paper's 7 → 4 race mapping; a suite
 * scoring FairFace's own classes: those) with the probability of each chosen class, and FairFace's own top race.
 */
function prediction(suite: AnySuite, face: { raceProbsJson: string | null; genderProbsJson: string | null; ageProbsJson?: string | null }) {
  const p = suitePrediction(suite, face);
  if (!p || !face.raceProbsJson) return null;
  const race7 = JSON.parse(face.raceProbsJson) as number[];
  let top = 0;
  race7.forEach((x, i) => (x > race7[top] ? (top = i) : undefined));
  // Every attribute the suite labels, by id (what the review page reads: it knows no attribute by name).
  const values: Record<string, string> = {};
  const confidence: Record<string, number> = {};
  for (const a of suite.faceAttributes as readonly FaceAttribute[]) {
    const x = a.predict(face);
    if (x) {
      values[a.id] = x.value;
      confidence[a.id] = x.p;
    }
  }
  return { ...p, values, confidence, fairface: { race: FAIRFACE_RACES[top], p: race7[top] } };
}

function consensusView(c: Consensus | null) {
  if (!c) return { annotators: 0, notAFace: false, gender: null, race: null, age: null, values: {} as Record<string, string>, disagreement: false };
  const v = <T>(x: Consensus["gender"] | Consensus["race"] | Consensus["age"]) =>
    x.status === "decided" ? (x.value as T) : x.status === "undecided" ? ("undecided" as const) : null;
  const values: Record<string, string> = {};
  for (const [a, vote] of Object.entries(c.votes)) if (vote.status !== "none") values[a] = vote.status === "decided" ? vote.value : "undecided";
  return {
    annotators: c.annotators,
    notAFace: c.notAFace,
    gender: v<string>(c.gender),
    race: v<string>(c.race),
    age: v<string>(c.age),
    values,
    disagreement: c.disagreement,
  };
}

function faceView(f: FaceRow, labels: Map<string, AnnotatorLabel> | undefined, annotator?: string) {
  const list = labels ? [...labels.values()] : [];
  const c = list.length ? consensus(list) : null;
  const mine = annotator ? (labels?.get(annotator) ?? null) : null;
  const suite = suiteOfFace(f.image.run?.suiteId);
  return {
    /** the suite whose label set this face is reviewed with */
    suite: suite.id,
    id: f.id,
    imageId: f.imageId,
    imageUrl: `/api/images/${f.imageId}`,
    image: { width: f.image.width, height: f.image.height, originalName: f.image.originalName, labelStatus: f.image.labelStatus },
    box: { x1: f.x1, y1: f.y1, x2: f.x2, y2: f.y2 },
    crop: squareCrop(f, f.image.width, f.image.height),
    source: f.source as "detector" | "manual",
    deleted: f.deleted,
    createdBy: f.createdBy,
    deletedBy: f.deletedBy,
    detectorScore: f.detectorScore,
    run: f.image.runId ? { id: f.image.runId, name: f.image.run?.name ?? f.image.runId } : null,
    model: { slug: f.image.modelConfig.slug, label: f.image.modelConfig.label },
    /** the suite item (statistic, entry …) the image was generated for */
    item: { id: f.image.statisticId, name: itemTitle(suite, f.image.statisticId) },
    level: f.image.level,
    test: f.image.test,
    prediction: prediction(suite, f),
    // Stored values in the face's suite's classes (not only FACT-OR-FAIR's).
    mine: mine && {
      values: mine.values,
      gender: mine.gender as string | null,
      race: mine.race as string | null,
      age: mine.age,
      notAFace: mine.notAFace,
      at: mine.at,
    },
    consensus: consensusView(c),
    labels: list.map((l) => ({
      annotator: l.annotator,
      name: l.annotator,
      values: l.values,
      gender: l.gender as string | null,
      race: l.race as string | null,
      age: l.age,
      notAFace: l.notAFace,
      at: l.at,
    })),
  };
}
export type ReviewFace = ReturnType<typeof faceView>;

/** Fills each label's (and drawer's / deleter's) display name from the accounts. */
async function named(prisma: PrismaClient, faces: ReviewFace[]): Promise<ReviewFace[]> {
  const names = await displayNames(
    prisma,
    faces.flatMap((f) => [...f.labels.map((l) => l.annotator), f.createdBy, f.deletedBy]),
  );
  for (const f of faces) {
    for (const l of f.labels) l.name = names.get(l.annotator) ?? l.annotator;
    if (f.createdBy) f.createdBy = names.get(f.createdBy) ?? f.createdBy;
    if (f.deletedBy) f.deletedBy = names.get(f.deletedBy) ?? f.deletedBy;
  }
  return faces;
}

function scopeWhere(f: z.infer<typeof reviewFilterSchema>) {
  const image = {
    ...(f.runId ? { runId: f.runId } : {}),
    ...(f.suite ? { run: { suiteId: f.suite } } : {}),
    ...(f.model ? { modelConfig: { slug: f.model } } : {}),
    ...(f.statisticId ? { statisticId: f.statisticId } : f.group ? { statisticId: { in: groupItems(f.suite, f.group) } } : {}),
    ...(f.level ? { level: f.level } : {}),
    ...(f.test ? { test: f.test } : {}),
    ...(f.context || f.attribute
      ? {
          query: {
            ...(f.context ? { context: f.context === "none" ? null : f.context } : {}),
            ...(f.attribute ? { attribute: f.attribute === "none" ? null : f.attribute } : {}),
          },
        }
      : {}),
    ...(f.assignmentId ? { assignments: { some: { assignmentId: f.assignmentId, ...(f.annotator ? { annotator: f.annotator } : {}) } } } : {}),
  };
  return { ...(f.includeDeleted ? {} : { deleted: false }), image };
}

function matches(face: ReviewFace, f: z.infer<typeof reviewFilterSchema>): boolean {
  switch (f.state) {
    case "unreviewed":
      if (face.mine) return false;
      break;
    case "reviewed":
      if (!face.mine) return false;
      break;
    case "unreviewed-any":
      if (face.consensus.annotators > 0) return false;
      break;
    case "disagreement":
      if (!face.consensus.disagreement) return false;
      break;
  }
  if (f.confidenceBelow !== undefined) {
    const p = face.prediction;
    if (!p || Math.min(p.genderConfidence, p.raceConfidence) >= f.confidenceBelow) return false;
  }
  return true;
}

/**
 * One page of the review queue in face-id order. Pages are cursor-based (`after` / `before` a face id), so
 * labelling faces out of an "unreviewed" filter never makes the next page skip any. Filters that need the labels
 * (state, confidence) are applied while scanning in chunks.
 */
export async function reviewQueue(prisma: PrismaClient, input: ReviewFilter) {
  const f = reviewFilterSchema.parse(input);
  if ((f.state === "unreviewed" || f.state === "reviewed") && !f.annotator) throw new DomainError("invalid", `the "${f.state}" filter needs an annotator name`);
  const where = scopeWhere(f);
  const backwards = f.before !== undefined && f.after === undefined;
  const chunk = Math.max(200, f.pageSize * 4);
  const out: ReviewFace[] = [];
  let cursor = backwards ? f.before! : (f.after ?? 0);
  let exhausted = false;
  let scanned = 0;
  while (out.length < f.pageSize + 1 && scanned < 50_000) {
    const rows = (await prisma.face.findMany({
      where: { ...where, id: backwards ? { lt: cursor } : { gt: cursor } },
      include: FACE_INCLUDE,
      orderBy: { id: backwards ? "desc" : "asc" },
      take: chunk,
    })) as FaceRow[];
    scanned += rows.length;
    const labels = currentLabels(
      rows.flatMap((r) => r.annotations),
      null,
    );
    for (const r of rows) {
      const v = faceView(r, labels.get(r.id), f.annotator);
      if (matches(v, f)) out.push(v);
      if (out.length > f.pageSize) break;
    }
    if (rows.length < chunk) {
      exhausted = true;
      break;
    }
    cursor = rows[rows.length - 1].id;
  }
  const more = out.length > f.pageSize;
  const faces = out.slice(0, f.pageSize);
  if (backwards) faces.reverse();
  const total = await prisma.face.count({ where });
  return {
    faces: await named(prisma, faces),
    total,
    /** cursors for the next and previous pages (null at either end) */
    next: backwards ? (faces.length ? faces[faces.length - 1].id : null) : more || !exhausted ? (faces.at(-1)?.id ?? null) : null,
    prev: backwards ? (more ? (faces[0]?.id ?? null) : null) : f.after ? (faces[0]?.id ?? null) : null,
  };
}

/** An attribute id as a suite declares it (gender, race, age, skin_tone …). */
const attributeIdSchema = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "an attribute id is lower-case letters, digits and _");

const labelInputSchema = z
  .object({
    faceId: z.number().int().positive(),
    // Checked against the face's suite's attributes and classes once the faces are read (saveAnnotations).
    /** a class per attribute (null or absent: not set) — any attribute the face's suite declares */
    values: z.record(attributeIdSchema, z.string().max(80).nullable()).default({}),
    // The three attributes every suite so far scores, also accepted by name (what the review page sends).
    gender: z.string().max(40).nullable().default(null),
    race: z.string().max(40).nullable().default(null),
    age: z.string().max(40).nullable().default(null),
    notAFace: z.boolean().default(false),
  })
  .transform((l, ctx) => {
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries({ gender: l.gender, race: l.race, age: l.age, ...l.values })) if (v !== null) values[k] = v;
    for (const k of ["gender", "race", "age"] as const)
      if (l[k] !== null && k in l.values && l.values[k] !== l[k]) ctx.addIssue({ code: "custom", message: `${k} given twice with different values` });
    if (Object.keys(values).length > 16) ctx.addIssue({ code: "custom", message: "at most 16 attributes per label" });
    return { faceId: l.faceId, notAFace: l.notAFace, values };
  })
  .refine((l) => !l.notAFace || Object.keys(l.values).length === 0, "a face marked “not a face” carries no gender, race, age or other class");

export const saveAnnotationsSchema = z.object({
  annotator: annotatorSchema,
  labels: z.array(labelInputSchema).min(1).max(500),
});

async function facesByIds(prisma: PrismaClient, ids: number[], annotator?: string): Promise<ReviewFace[]> {
  const rows = (await prisma.face.findMany({ where: { id: { in: ids } }, include: FACE_INCLUDE, orderBy: { id: "asc" } })) as FaceRow[];
  const labels = currentLabels(
    rows.flatMap((r) => r.annotations),
    null,
  );
  return named(
    prisma,
    rows.map((r) => faceView(r, labels.get(r.id), annotator)),
  );
}

/**
 * Appends one annotator's labels (all or nothing). Rows are never updated, so two annotators labelling the same
 * face at the same moment both keep their label; an all-empty label withdraws the annotator's label (undo).
 */
export async function saveAnnotations(prisma: PrismaClient, input: z.input<typeof saveAnnotationsSchema>) {
  const { annotator, labels } = saveAnnotationsSchema.parse(input);
  const ids = [...new Set(labels.map((l) => l.faceId))];
  await prisma.$transaction(async (tx) => {
    const found = await tx.face.findMany({
      where: { id: { in: ids } },
      select: { id: true, deleted: true, image: { select: { run: { select: { suiteId: true } } } } },
    });
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw new DomainError("not_found", `face${missing.length > 1 ? "s" : ""} ${missing.join(", ")} not found`);
    const deleted = found.filter((f) => f.deleted).map((f) => f.id);
    if (deleted.length)
      throw new DomainError("conflict", `face${deleted.length > 1 ? "s" : ""} ${deleted.join(", ")} deleted (restore the detection to label it)`);
    // Each face takes the classes of its own suite (FACT-OR-FAIR's 4 races, FairFace's 7 …).
    const suiteOf = new Map(found.map((f) => [f.id, suiteOfFace(f.image.run?.suiteId)]));
    for (const l of labels) {
      const suite = suiteOf.get(l.faceId)!;
      for (const [attribute, value] of Object.entries(l.values)) {
        const why = invalidLabel(suite.faceAttributes, attribute, value);
        if (why) throw new DomainError("invalid", `face ${l.faceId} (${suite.name}): ${why}`);
      }
    }
    // One row per label, a value row per attribute it sets (an all-empty label is a row without values: a withdrawal).
    for (const l of labels)
      await tx.annotation.create({
        data: {
          faceId: l.faceId,
          annotator,
          notAFace: l.notAFace,
          values: { create: Object.entries(l.values).map(([attribute, value]) => ({ attribute, value })) },
        },
        select: { id: true },
      });
  });
  return { faces: await facesByIds(prisma, ids, annotator) };
}

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
  z.object({
    annotator: annotatorSchema,
    classifier: modelRefSchema,
    runtime: labelRuntimeSchema,
    probabilities: probabilitiesSchema,
  }),
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
    if (face.image.runId) await assertRunClassifier(prisma, face.image.runId, u.classifier);
    await prisma.face.update({
      where: { id: faceId },
      data: {
        classifierModel: u.classifier.model,
        classifierVersion: u.classifier.sha256,
        labelRuntime: u.runtime,
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
    select: { id: true, width: true, height: true, faces: { select: { id: true }, orderBy: { id: "asc" } } },
  });
  if (!image) throw new DomainError("not_found", "image not found");
  return {
    id: image.id,
    url: `/api/images/${image.id}`,
    width: image.width,
    height: image.height,
    faces: await facesByIds(
      prisma,
      image.faces.map((f) => f.id),
      annotator,
    ),
  };
}

export const facelessFilterSchema = z.object({
  runId: z.string().max(40).optional(),
  model: z.string().max(80).optional(),
  /** a suite's own coordinates (Suite.reviewFilters): plain values compared with the image's columns */
  suite: z.string().max(64).optional(),
  statisticId: z.string().max(80).optional(),
  level: z.string().max(40).optional(),
  test: z.string().max(40).optional(),
  /** the image's query's context (DoFaiR: augmentation; "none": without one) and requested attribute (FAIntbench) */
  context: z.string().max(40).optional(),
  attribute: z.string().max(40).optional(),
  /** a suite's item set (a "group" filter, e.g. the prompts requesting one class); needs `suite` */
  group: z.string().max(80).optional(),
  assignmentId: z.string().max(40).optional(),
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

// ---------------------------------------------------------------------------------------------------------------
// Assignments

export const assignmentSchema = z.object({
  name: z.string().trim().min(1, "name required").max(80),
  runIds: z.array(z.string().min(1).max(40)).min(1, "choose at least one run"),
  annotators: z.array(annotatorSchema).min(1, "at least one annotator"),
  perModel: z.coerce.number().int().min(1).max(10_000).default(25),
  overlap: z.coerce.number().int().min(1).max(50),
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(1),
});

/** Samples the runs' labelled images per model with the seed and deals them to the annotators (one transaction). */
export async function createAssignment(prisma: PrismaClient, input: z.input<typeof assignmentSchema>) {
  const a = assignmentSchema.parse(input);
  const annotators = [...new Set(a.annotators)];
  if (a.overlap > annotators.length)
    throw new DomainError("invalid", `annotators per image (${a.overlap}) cannot exceed the number of annotators (${annotators.length})`);
  const images = await prisma.image.findMany({
    where: { runId: { in: a.runIds }, labelStatus: { in: ["labelled", "no_face"] } },
    select: { id: true, modelConfig: { select: { slug: true } } },
  });
  if (!images.length) throw new DomainError("invalid", "the chosen runs have no labelled images yet: label them on the Label page first");
  const byModel = new Map<string, string[]>();
  for (const i of images) byModel.set(i.modelConfig.slug, [...(byModel.get(i.modelConfig.slug) ?? []), i.id]);
  const deal = dealAssignment({ imagesByModel: byModel, annotators, perModel: a.perModel, overlap: a.overlap, seed: a.seed });
  return prisma.$transaction(async (tx) => {
    const created = await tx.assignment.create({
      data: {
        name: a.name,
        scopeJson: JSON.stringify({ runIds: a.runIds }),
        seed: a.seed,
        perModel: a.perModel,
        overlap: a.overlap,
        annotatorsJson: JSON.stringify(annotators),
      },
    });
    await tx.assignmentItem.createMany({ data: deal.items.map((i) => ({ assignmentId: created.id, ...i })) });
    return { id: created.id, images: [...deal.sample.values()].reduce((n, s) => n + s.length, 0), items: deal.items.length };
  });
}

/** Assignments with each annotator's progress: assigned images, faces in them, and faces they have labelled. */
export async function listAssignments(prisma: PrismaClient) {
  const assignments = await prisma.assignment.findMany({ orderBy: { createdAt: "desc" }, include: { items: { select: { annotator: true, imageId: true } } } });
  const out = [];
  for (const a of assignments) {
    const imageIds = [...new Set(a.items.map((i) => i.imageId))];
    const faces = await prisma.face.findMany({
      where: { imageId: { in: imageIds }, deleted: false },
      select: { id: true, imageId: true, annotations: { select: ANNOTATION_ROW_SELECT } },
    });
    const labels = currentLabels(
      faces.flatMap((f) => f.annotations),
      null,
    );
    const annotators = JSON.parse(a.annotatorsJson) as string[];
    out.push({
      id: a.id,
      name: a.name,
      seed: a.seed,
      perModel: a.perModel,
      overlap: a.overlap,
      createdAt: a.createdAt.toISOString(),
      runIds: (JSON.parse(a.scopeJson) as { runIds: string[] }).runIds,
      images: imageIds.length,
      annotators: annotators.map((name) => {
        const mine = new Set(a.items.filter((i) => i.annotator === name).map((i) => i.imageId));
        const myFaces = faces.filter((f) => mine.has(f.imageId));
        return { name, images: mine.size, faces: myFaces.length, labelled: myFaces.filter((f) => labels.get(f.id)?.has(name)).length };
      }),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Agreement, progress and the detector report over a scope (a run, a model, an assignment, or everything)

// The review feature's view of a face: what the queue, the image view and the labels return (with each annotator's
// label and the consensus), and the filters that pick faces. Shared by queue.ts, detections.ts and assignments.ts.
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { ANNOTATION_ROW_SELECT } from "../results/run-results";
import { FAIRFACE_RACES } from "../../faces/labels";
import { itemTitle, suiteOfFace, suitePrediction } from "../../suites/faces";
import { groupItems } from "../../suites/filters";
import type { AnySuite } from "../../suites";
import type { FaceAttribute } from "../../suites/types";
import { squareCrop } from "../../faces/image";
import { consensus, currentLabels, type AnnotationRow, type AnnotatorLabel, type Consensus } from "../../review";
import { displayNames } from "../../auth/names";
import { excludedAnnotators } from "../../review/exclusions";

/** A simple name-based identity (roles come later): letters, digits, spaces and . _ ' - */
export const annotatorSchema = z
  .string()
  .trim()
  .min(1, "annotator name required")
  .max(40, "annotator name: at most 40 characters")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._'-]*$/u, "annotator name: letters, digits, spaces and . _ ' - only");

const reviewStates = ["all", "unreviewed", "unreviewed-any", "reviewed", "disagreement"] as const;

/** What a review view is about: a run, model, suite, the suite's own coordinates, an assignment. */
export const reviewScopeSchema = z.object({
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
});

export const reviewFilterSchema = reviewScopeSchema.extend({
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

export const FACE_INCLUDE = {
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

export type FaceRow = {
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

export interface FaceViewOptions {
  /** annotators whose votes an admin left out of the consensus: their labels are shown, marked, and not counted */
  excluded?: ReadonlySet<string>;
  /**
   * an annotator's own queue: until they label the face, nobody else's label or the majority is sent (labels given
   * independently keep agreement and gold accuracy honest, and a gold face looks like any other)
   */
  blind?: boolean;
}

export function faceView(f: FaceRow, labels: Map<string, AnnotatorLabel> | undefined, annotator?: string, opts: FaceViewOptions = {}) {
  const mine = annotator ? (labels?.get(annotator) ?? null) : null;
  const list = opts.blind && !mine ? [] : labels ? [...labels.values()] : [];
  const counted = opts.excluded?.size ? list.filter((l) => !opts.excluded!.has(l.annotator)) : list;
  const c = counted.length ? consensus(counted) : null;
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
      /** left out of the consensus by an admin */
      excluded: opts.excluded?.has(l.annotator) ?? false,
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
export async function named(prisma: PrismaClient, faces: ReviewFace[]): Promise<ReviewFace[]> {
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

export function scopeWhere(f: z.infer<typeof reviewFilterSchema>) {
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

export function matches(face: ReviewFace, f: z.infer<typeof reviewFilterSchema>): boolean {
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

export async function facesByIds(prisma: PrismaClient, ids: number[], annotator?: string, opts: { blind?: boolean } = {}): Promise<ReviewFace[]> {
  const [rows, excluded] = await Promise.all([
    prisma.face.findMany({ where: { id: { in: ids } }, include: FACE_INCLUDE, orderBy: { id: "asc" } }) as Promise<FaceRow[]>,
    excludedAnnotators(prisma),
  ]);
  const labels = currentLabels(
    rows.flatMap((r) => r.annotations),
    null,
  );
  return named(
    prisma,
    rows.map((r) => faceView(r, labels.get(r.id), annotator, { excluded, blind: opts.blind })),
  );
}

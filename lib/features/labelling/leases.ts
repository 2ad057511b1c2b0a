// Face labelling work for browser tabs: images are leased in small batches (several tabs never label the same
// image), results come back with every raw probability, and are accepted only from the tab holding the lease.
import { DEFAULT_SUITE_ID, findSuite } from "../../suites";
import { FAIRFACE_DISPLAY } from "../../suites/label-display";
import type { LabelDisplay } from "../../suites/types";
import type { ClipGroups } from "../../faces/clip-texts";
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import { z } from "zod";
import { FAIRFACE_AGES, FAIRFACE_GENDERS, FAIRFACE_RACES } from "../../faces/labels";
import {
  CHIP_METHOD_TEXT,
  chipMethodSchema,
  isAlignedChip,
  labelInstrumentSchema,
  labelRuntimeSchema,
  modelDisplayName,
  modelRefSchema,
  type ChipMethod,
  type LabelInstrument,
} from "../../faces/provenance";
import { runClassifier } from "../../faces/run-provenance";
import { DomainError } from "../../core/errors";
import { runSettled } from "../../core/settled";
import { emitIfLabellingDone } from "../webhooks/emit";
import { byCodeUnits } from "../../core/order";

const LABEL_LEASE_MS = 3 * 60_000;

/** A lease token: 192 random bits issued by the server with a batch; results are accepted only with it. */
export const leaseTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{32}$/, "a lease token issued by /api/label/lease");

function newLeaseToken(): string {
  return randomBytes(24).toString("base64url");
}

export const leaseRequestSchema = z.object({
  runId: z.string().max(40).nullable().default(null),
  /** only runs launched with "label automatically" (what label workers take) */
  autoLabel: z.boolean().default(false),
  /** which instrument's images: the face pipeline's (Label page, face labellers) or CLIP's (CLIP labellers) */
  instrument: labelInstrumentSchema.default("faces"),
  max: z.number().int().min(1).max(64).default(8),
});

/** The images an instrument labels: those of runs launched with it (images without a run are the face pipeline's). */
export function instrumentScope(instrument: LabelInstrument) {
  return instrument === "faces" ? { OR: [{ runId: null }, { run: { labelInstrument: "faces" } }] } : { run: { labelInstrument: instrument } };
}

/**
 * A box must lie inside its image (x1 < x2, y1 < y2) up to a small tolerance — detectors overhang the border by a
 * few pixels, nothing more — and is then clamped to it. Anything else is refused, never silently repaired.
 */
export function boxWithin(box: { x1: number; y1: number; x2: number; y2: number }, width: number, height: number, what = "box") {
  const tx = 1 + 0.02 * width;
  const ty = 1 + 0.02 * height;
  const ok =
    [box.x1, box.y1, box.x2, box.y2].every(Number.isFinite) &&
    box.x1 < box.x2 &&
    box.y1 < box.y2 &&
    box.x1 >= -tx &&
    box.y1 >= -ty &&
    box.x2 <= width + tx &&
    box.y2 <= height + ty;
  if (!ok)
    throw new z.ZodError([
      { code: "custom", path: [what], message: `${what} must lie inside the ${width} × ${height} image with x1 < x2 and y1 < y2`, input: box },
    ]);
  return { x1: Math.max(0, box.x1), y1: Math.max(0, box.y1), x2: Math.min(width, box.x2), y2: Math.min(height, box.y2) };
}

const probs = (n: number, what: string) =>
  z
    .array(z.number().finite().min(0).max(1))
    .length(n, `${what}: ${n} probabilities`)
    .refine((p) => Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-3, `${what}: probabilities must sum to 1`);

/** Every raw FairFace probability of one face. */
export const probabilitiesSchema = z.object({
  race: probs(FAIRFACE_RACES.length, "race"),
  gender: probs(FAIRFACE_GENDERS.length, "gender"),
  age: probs(FAIRFACE_AGES.length, "age"),
});

const coord = z.number().finite();
const faceResultSchema = z
  .object({
    x1: coord,
    y1: coord,
    x2: coord,
    y2: coord,
    score: z.number().min(0).max(1),
    race: probs(FAIRFACE_RACES.length, "race"),
    gender: probs(FAIRFACE_GENDERS.length, "gender"),
    age: probs(FAIRFACE_AGES.length, "age"),
  })
  .refine((f) => f.x2 > f.x1 && f.y2 > f.y1, "a face box needs x2 > x1 and y2 > y1");

const labelResultsSchema = z
  .object({
    lease: leaseTokenSchema,
    /** the classifier and the detector by name and sha256 of their files, so labels trace to the exact weights */
    /** source "server": the page took the server's FairFace file (checked against it); "browser": a file its user chose */
    classifier: modelRefSchema.extend({ source: z.enum(["server", "browser"]).optional() }),
    detector: modelRefSchema.extend({ threshold: z.number().min(0.5).max(1) }),
    /** how the classifier's inputs were cut; a client that does not say cut square crops (what older pages did) */
    chip: chipMethodSchema.default("square"),
    /** the landmarker that placed aligned chips (required with them) */
    landmarker: modelRefSchema.optional(),
    runtime: labelRuntimeSchema,
    results: z
      .array(z.object({ imageId: z.string().min(1).max(40), faces: z.array(faceResultSchema).max(100) }))
      .min(1)
      .max(64),
  })
  .refine((r) => isAlignedChip(r.chip) === !!r.landmarker, { path: ["landmarker"], message: "aligned chips name their landmarker; square crops have none" });

export interface LeasedImage {
  id: string;
  runId: string | null;
  url: string;
  width: number;
  height: number;
  test: string;
  statisticId: string;
  level: string;
  /** the run's suite: its faces are shown in its classes (LeaseResult.displays) */
  suiteId: string;
}

/**
 * Leases up to `max` unlabelled images (or ones whose lease expired) under a fresh unguessable token, returned with
 * them: only its holder can store their labels or release them.
 */
export async function leaseImages(
  prisma: PrismaClient,
  req: z.input<typeof leaseRequestSchema>,
  leaseMs = LABEL_LEASE_MS,
  account: string | null = null,
): Promise<{
  lease: string;
  leaseMs: number;
  images: LeasedImage[];
  displays: Record<string, LabelDisplay>;
  /** CLIP leases: each suite's groups of texts, the softmax groups a reading must hold */
  clipGroups?: Record<string, ClipGroups>;
  remaining: number;
}> {
  const { runId, autoLabel, instrument, max } = leaseRequestSchema.parse(req);
  const token = newLeaseToken();
  const owner = boundLease(token, account);
  const now = new Date();
  const scope = { AND: [{ ...(runId ? { runId } : {}), ...(autoLabel ? { run: { autoLabel: true } } : {}) }, instrumentScope(instrument)] };
  const images = await prisma.$transaction(async (tx) => {
    const free = await tx.image.findMany({
      where: { ...scope, OR: [{ labelStatus: "unlabelled" }, { labelStatus: "leased", leaseUntil: { lt: now } }] },
      select: { id: true },
      orderBy: { id: "asc" },
      take: max,
    });
    if (!free.length) return [];
    await tx.image.updateMany({
      where: { id: { in: free.map((f) => f.id) }, OR: [{ labelStatus: "unlabelled" }, { labelStatus: "leased", leaseUntil: { lt: now } }] },
      data: { labelStatus: "leased", leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs) },
    });
    return tx.image.findMany({
      where: { id: { in: free.map((f) => f.id) }, leaseOwner: owner, labelStatus: "leased" },
      select: { id: true, runId: true, width: true, height: true, test: true, statisticId: true, level: true, run: { select: { suiteId: true } } },
      orderBy: { id: "asc" },
    });
  });
  const remaining = await prisma.image.count({ where: { ...scope, labelStatus: { in: ["unlabelled", "leased"] } } });
  // Each image says its suite, and each suite how its faces are shown (LabelDisplay), so the page shows them in
  // that suite's classes without knowing any suite.
  const withSuite = images.map(({ run, ...i }) => ({ ...i, suiteId: run?.suiteId ?? DEFAULT_SUITE_ID, url: `/api/images/${i.id}` }));
  const displays = Object.fromEntries([...new Set(withSuite.map((i) => i.suiteId))].map((id) => [id, findSuite(id)?.labelDisplay ?? FAIRFACE_DISPLAY]));
  const suites = [...new Set(withSuite.map((i) => i.suiteId))];
  const clipGroups = instrument === "clip" ? Object.fromEntries(suites.map((id) => [id, findSuite(id)?.clipGroups ?? {}])) : undefined;
  return { lease: token, leaseMs, images: withSuite, displays, ...(clipGroups ? { clipGroups } : {}), remaining };
}

/**
 * What is stored as a lease's owner: the token bound to the account that took it, so a token that leaks (logs, a
 * shared screen) is worth nothing to another account. Workers without an account (the CLI) use the bare token.
 */
export function boundLease(token: string, account: string | null): string {
  return account ? `${account}|${token}` : token;
}

/** The images a post is about, refused when one appears twice (it would be stored twice). */
export function distinctImageIds(results: ReadonlyArray<{ imageId: string }>): string[] {
  const ids = results.map((x) => x.imageId);
  if (new Set(ids).size !== ids.length) throw new z.ZodError([{ code: "custom", path: ["results"], message: "an image appears twice", input: ids }]);
  return ids;
}

/**
 * Stores a tab's results in one transaction: faces with all raw probabilities, the image marked labelled (or
 * no_face). Results for images this tab does not hold (lease expired and taken by another tab, or already
 * labelled) are refused and reported, never stored twice.
 */
export async function saveLabels(
  prisma: PrismaClient,
  input: unknown,
  account: string | null = null,
): Promise<{ saved: number; faces: number; refused: string[] }> {
  const r = labelResultsSchema.parse(input);
  const owner = boundLease(r.lease, account);
  const ids = distinctImageIds(r.results);
  // Runs whose last image this batch labelled: their intervals and views are computed ahead once it commits.
  const settled: string[] = [];
  const out = await prisma.$transaction(async (tx) => {
    const held = await tx.image.findMany({
      where: { id: { in: ids }, labelStatus: "leased", leaseOwner: owner },
      select: { id: true, width: true, height: true, runId: true, run: { select: { labelInstrument: true } } },
    });
    const other = held.find((h) => h.run && h.run.labelInstrument !== "faces");
    if (other) throw new DomainError("conflict", `image ${other.id} belongs to a run labelled by ${other.run!.labelInstrument}, not by faces`);
    const ok = new Map(held.map((h) => [h.id, h]));
    // One run, one instrument: a classifier other than the one a run is already labelled with is refused.
    for (const runId of new Set(held.map((h) => h.runId).filter((x): x is string => !!x))) await assertRunClassifier(tx, runId, r.classifier, r.chip);
    // Every box of every held image is checked before anything is written: one bad box refuses the whole post.
    const boxes = new Map<string, Array<{ x1: number; y1: number; x2: number; y2: number }>>();
    for (const res of r.results) {
      const img = ok.get(res.imageId);
      if (img)
        boxes.set(
          res.imageId,
          res.faces.map((f, i) => boxWithin(f, img.width, img.height, `results.${res.imageId}.faces.${i}`)),
        );
    }
    let faces = 0;
    const rows = [];
    for (const res of r.results) {
      const img = ok.get(res.imageId);
      if (!img) continue;
      for (const [i, f] of res.faces.entries()) {
        faces++;
        const b = boxes.get(res.imageId)![i];
        rows.push({
          imageId: res.imageId,
          ...b,
          detectorScore: f.score,
          source: "detector",
          classifierModel: r.classifier.model,
          classifierVersion: r.classifier.sha256,
          detectorModel: r.detector.model,
          detectorVersion: r.detector.sha256,
          labelRuntime: r.runtime,
          chipMethod: r.chip,
          landmarkerModel: r.landmarker?.model ?? null,
          landmarkerVersion: r.landmarker?.sha256 ?? null,
          raceProbsJson: JSON.stringify(f.race),
          genderProbsJson: JSON.stringify(f.gender),
          ageProbsJson: JSON.stringify(f.age),
        });
      }
    }
    if (rows.length) await tx.face.createMany({ data: rows });
    const withFaces = r.results.filter((x) => ok.has(x.imageId) && x.faces.length).map((x) => x.imageId);
    const without = r.results.filter((x) => ok.has(x.imageId) && !x.faces.length).map((x) => x.imageId);
    if (withFaces.length)
      await tx.image.updateMany({ where: { id: { in: withFaces } }, data: { labelStatus: "labelled", leaseOwner: null, leaseUntil: null } });
    if (without.length) await tx.image.updateMany({ where: { id: { in: without } }, data: { labelStatus: "no_face", leaseOwner: null, leaseUntil: null } });
    // The batch that labels a finished run's last image tells the webhooks (in this transaction: never lost).
    for (const runId of new Set(held.map((h) => h.runId).filter((x): x is string => !!x))) if (await emitIfLabellingDone(tx, runId)) settled.push(runId);
    return { saved: ok.size, faces, refused: ids.filter((id) => !ok.has(id)) };
  });
  for (const id of settled) void runSettled(prisma, id);
  return out;
}

/** Refuses labels of a run from a classifier (or chip method) other than the one its faces already come from (409). */
export async function assertRunClassifier(
  tx: Parameters<typeof runClassifier>[0],
  runId: string,
  classifier: { model: string; sha256: string },
  chip: ChipMethod,
) {
  const current = await runClassifier(tx, runId);
  if (current && current.sha256 === classifier.sha256 && current.chip !== chip)
    throw new DomainError(
      "conflict",
      `run ${runId} is labelled on ${CHIP_METHOD_TEXT[current.chip]}; these labels come from ${CHIP_METHOD_TEXT[chip]}. One run is labelled one way, so its scores never mix two instruments: ${current.chip === "dlib-5pt" ? "its faces were cut before labellers followed predict.py's resize to 800 px, which no labeller does any more — launch the run again to label it as predict.py does." : "label it with the same pipeline (FOF_FACE_CHIPS, the landmarker installed or not)."}`,
    );
  if (current && current.sha256 !== classifier.sha256)
    throw new DomainError(
      "conflict",
      `run ${runId} is labelled with ${modelDisplayName(current.name, current.sha256)} (sha256 ${current.sha256.slice(0, 12)}…); these labels come from ${modelDisplayName(classifier.model, classifier.sha256)} (sha256 ${classifier.sha256.slice(0, 12)}…). One run is labelled by one classifier, so its scores never mix two instruments: use the same model file.`,
    );
}

const releaseRequestSchema = z.object({ leases: z.array(leaseTokenSchema).min(1).max(64) });

/** Gives a tab's leases back (the tab stopped or closed), so other tabs can take the images at once. */
export async function releaseLeases(prisma: PrismaClient, input: unknown, account: string | null = null): Promise<number> {
  const { leases } = releaseRequestSchema.parse(input);
  const r = await prisma.image.updateMany({
    where: { labelStatus: "leased", leaseOwner: { in: leases.map((l) => boundLease(l, account)) } },
    data: { labelStatus: "unlabelled", leaseOwner: null, leaseUntil: null },
  });
  return r.count;
}

/** Runs with images still to label, for the Label page's picker. */
export async function labellingQueue(prisma: PrismaClient) {
  const rows = await prisma.image.groupBy({ by: ["runId", "labelStatus"], _count: { _all: true } });
  const runs = await prisma.run.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.runId).filter((x): x is string => !!x))] } },
    select: { id: true, name: true, createdAt: true, labelInstrument: true },
  });
  return runs
    .map((run) => {
      const mine = rows.filter((r) => r.runId === run.id);
      const n = (s: string[]) => mine.filter((r) => s.includes(r.labelStatus)).reduce((a, r) => a + r._count._all, 0);
      return {
        id: run.id,
        name: run.name,
        createdAt: run.createdAt.toISOString(),
        instrument: run.labelInstrument as LabelInstrument,
        total: n(["unlabelled", "leased", "labelled", "no_face"]),
        todo: n(["unlabelled", "leased"]),
      };
    })
    .sort((a, b) => byCodeUnits(b.createdAt, a.createdAt));
}

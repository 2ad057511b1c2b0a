// Human review of face labels: the review queue (a page of faces after a filter) and annotators' labels, appended
// (never overwritten), each checked against the face's suite's attributes. Validation at the boundary (zod).
import { z } from "zod";
import type { Prisma, PrismaClient } from "../../../generated/prisma/client";
import { isGoldSlot, hashOf } from "../../review/annotator-quality";
import { excludedAnnotators } from "../../review/exclusions";
import { goldRate } from "./annotators";
import { invalidLabel } from "../../review/label-set";
import { suiteOfFace } from "../../suites/faces";
import { currentLabels } from "../../review";
import { DomainError } from "../../core/errors";
import {
  annotatorSchema,
  reviewFilterSchema,
  FACE_INCLUDE,
  FaceRow,
  faceView,
  named,
  scopeWhere,
  matches,
  facesByIds,
  ReviewFace,
  ReviewFilter,
} from "./faces";

export async function reviewQueue(prisma: PrismaClient, input: ReviewFilter) {
  const f = reviewFilterSchema.parse(input);
  if ((f.state === "unreviewed" || f.state === "reviewed") && !f.annotator) throw new DomainError("invalid", `the "${f.state}" filter needs an annotator name`);
  const where = scopeWhere(f);
  const backwards = f.before !== undefined && f.after === undefined;
  // My queue is blind: nobody else's label until I give mine (and gold faces look like the rest).
  const blind = f.state === "unreviewed";
  const excluded = await excludedAnnotators(prisma);
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
      const v = faceView(r, labels.get(r.id), f.annotator, { excluded, blind });
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
    faces: blind && f.annotator ? await withGold(prisma, await named(prisma, faces), f.annotator, f.assignmentId, where) : await named(prisma, faces),
    total,
    /** cursors for the next and previous pages (null at either end): the queue's own faces, never a gold one */
    next: backwards ? (faces.length ? faces[faces.length - 1].id : null) : more || !exhausted ? (faces.at(-1)?.id ?? null) : null,
    prev: backwards ? (more ? (faces[0]?.id ?? null) : null) : f.after ? (faces[0]?.id ?? null) : null,
  };
}

/**
 * Serves gold faces blind among an annotator's unreviewed faces: each slot of the page is gold with the configured
 * rate (deterministic from the annotator and the page, so a reload serves the same mix), filled with gold faces they
 * have not labelled — from the queue's scope first, so a gold face shows the same run and model as its neighbours.
 */
async function withGold(prisma: PrismaClient, faces: ReviewFace[], annotator: string, assignmentId: string | undefined, where: Prisma.FaceWhereInput) {
  const rate = faces.length ? await goldRate(prisma, assignmentId) : 0;
  const slots = faces.map((_, i) => isGoldSlot(annotator, `${faces[0]?.id}:${i}`, rate));
  const wanted = slots.filter(Boolean).length;
  if (!wanted) return faces;
  const onPage = new Set(faces.map((x) => x.id));
  const candidates = async (scope: Prisma.FaceWhereInput) =>
    (
      await prisma.goldLabel.findMany({
        where: { face: { ...scope, deleted: false, annotations: { none: { annotator } } } },
        select: { faceId: true },
        take: 500,
      })
    )
      .map((g) => g.faceId)
      .filter((id) => !onPage.has(id));
  let ids = await candidates(where);
  if (ids.length < wanted) ids = [...new Set([...ids, ...(await candidates({}))])];
  // A different order per annotator, the same on every reload.
  const rank = (id: number) => hashOf(`${annotator}:${id}`);
  const chosen = ids.sort((a, b) => rank(a) - rank(b) || a - b).slice(0, wanted);
  if (!chosen.length) return faces;
  const gold = await facesByIds(prisma, chosen, annotator, { blind: true });
  const out: ReviewFace[] = [];
  faces.forEach((x, i) => {
    if (slots[i] && gold.length) out.push(gold.shift()!);
    out.push(x);
  });
  return out;
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

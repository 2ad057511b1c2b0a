// Annotators measured, and set aside where needed (CVAT's validation mode, DESIGN.md §12): gold faces (reviewed
// faces whose labels an admin vouches for, served blind in annotators' queues), each annotator's accuracy on gold
// and agreement with the others, and exclusions (an annotator's votes left out of every consensus). Every change is
// audited in the same transaction and can be undone.
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { actorOf, audit, type Actor } from "../../auth/audit";
import { DomainError } from "../../core/errors";
import { env } from "../../env";
import { annotatorQuality, type GoldFace } from "../../review/annotator-quality";
import { invalidLabel } from "../../review/label-set";
import { ANNOTATION_ROW_SELECT, consensus, currentLabels, type AnnotationRow, type AnnotatorLabel } from "../../review/votes";
import { suiteOfFace } from "../../suites/faces";
import { excludedAnnotators } from "../../review/exclusions";

export const exclusionSchema = z.discriminatedUnion("excluded", [
  z.object({ annotator: z.string().min(1).max(80), excluded: z.literal(true), reason: z.string().trim().min(3, "say why (at least 3 characters)").max(500) }),
  z.object({ annotator: z.string().min(1).max(80), excluded: z.literal(false) }),
]);

/** Leaves an annotator's votes out of every consensus, or brings them back; audited with the reason. */
export async function setExclusion(prisma: PrismaClient, input: z.input<typeof exclusionSchema>, actor: Actor) {
  const e = exclusionSchema.parse(input);
  return prisma.$transaction(async (tx) => {
    const labels = await tx.annotation.count({ where: { annotator: e.annotator } });
    if (!labels) throw new DomainError("not_found", `${e.annotator} has labelled no face`);
    const current = await tx.annotatorExclusion.findUnique({ where: { annotator: e.annotator } });
    if (e.excluded) {
      if (current) throw new DomainError("conflict", "this annotator's votes are already excluded");
      await tx.annotatorExclusion.create({ data: { annotator: e.annotator, excludedBy: actor.id, reason: e.reason } });
    } else {
      if (!current) throw new DomainError("conflict", "this annotator's votes are not excluded");
      await tx.annotatorExclusion.delete({ where: { annotator: e.annotator } });
    }
    await audit(tx, {
      ...actorOf(actor),
      action: e.excluded ? "annotator.exclude" : "annotator.restore",
      targetType: "annotator",
      targetId: e.annotator,
      details: e.excluded ? { reason: e.reason, labels } : { reason: current!.reason, excludedBy: current!.excludedBy },
    });
    return { annotator: e.annotator, excluded: e.excluded };
  });
}

export const goldSchema = z.discriminatedUnion("gold", [
  z.object({
    faceId: z.number().int().positive(),
    gold: z.literal(true),
    /** the gold labels per attribute; left out: the face's decided majority (excluded annotators aside) */
    values: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/), z.string().max(80)).optional(),
  }),
  z.object({ faceId: z.number().int().positive(), gold: z.literal(false) }),
]);

/**
 * Marks a reviewed face as gold with its labels (given, or the face's decided majority), or unmarks it; audited. A
 * face no one labelled, a deleted face and one whose majority is "not a face" cannot be gold.
 */
export async function setGold(prisma: PrismaClient, input: z.input<typeof goldSchema>, actor: Actor) {
  const g = goldSchema.parse(input);
  return prisma.$transaction(async (tx) => {
    const face = await tx.face.findUnique({
      where: { id: g.faceId },
      select: { id: true, deleted: true, image: { select: { run: { select: { suiteId: true } } } }, annotations: { select: ANNOTATION_ROW_SELECT } },
    });
    if (!face) throw new DomainError("not_found", `face ${g.faceId} not found`);
    const existing = await tx.goldLabel.findUnique({ where: { faceId: g.faceId } });
    if (!g.gold) {
      if (!existing) throw new DomainError("conflict", `face ${g.faceId} is not gold`);
      await tx.goldLabel.delete({ where: { faceId: g.faceId } });
      await audit(tx, {
        ...actorOf(actor),
        action: "face.ungold",
        targetType: "face",
        targetId: String(g.faceId),
        details: { labels: JSON.parse(existing.labelsJson) },
      });
      return { faceId: g.faceId, gold: null };
    }
    if (face.deleted) throw new DomainError("conflict", `face ${g.faceId} is deleted`);
    const excluded = await excludedAnnotators(tx);
    const byAnnotator = currentLabels(face.annotations as AnnotationRow[], null, excluded).get(face.id);
    if (!byAnnotator?.size) throw new DomainError("invalid", `face ${g.faceId} has no label yet: gold faces are reviewed faces`);
    const c = consensus(byAnnotator.values());
    if (c.notAFace) throw new DomainError("invalid", `the annotators say face ${g.faceId} is not a face`);
    const majority = Object.fromEntries(Object.entries(c.votes).flatMap(([a, v]) => (v.status === "decided" ? [[a, v.value]] : [])));
    const values = g.values ?? majority;
    if (!Object.keys(values).length) throw new DomainError("invalid", `face ${g.faceId} has no decided majority: give its gold labels`);
    const suite = suiteOfFace(face.image.run?.suiteId);
    for (const [attribute, value] of Object.entries(values)) {
      const why = invalidLabel(suite.faceAttributes, attribute, value);
      if (why) throw new DomainError("invalid", `face ${g.faceId} (${suite.name}): ${why}`);
    }
    const labelsJson = JSON.stringify(values);
    await tx.goldLabel.upsert({
      where: { faceId: g.faceId },
      create: { faceId: g.faceId, labelsJson, markedBy: actor.id },
      update: { labelsJson, markedBy: actor.id },
    });
    await audit(tx, {
      ...actorOf(actor),
      action: "face.gold",
      targetType: "face",
      targetId: String(g.faceId),
      details: { labels: values, ...(existing ? { was: JSON.parse(existing.labelsJson) } : {}) },
    });
    return { faceId: g.faceId, gold: values };
  });
}

/** The gold labels of these faces (for admins' views; never sent to an annotator's queue). */
export async function goldOf(prisma: PrismaClient, faceIds: number[]): Promise<Map<number, Record<string, string>>> {
  const rows = await prisma.goldLabel.findMany({ where: { faceId: { in: faceIds } } });
  return new Map(rows.map((r) => [r.faceId, JSON.parse(r.labelsJson) as Record<string, string>]));
}

/** The share of an annotator's queue served as gold: the assignment's, else FOF_REVIEW_GOLD_RATE (default 0.05). */
export async function goldRate(prisma: PrismaClient, assignmentId: string | undefined): Promise<number> {
  if (assignmentId) {
    const a = await prisma.assignment.findUnique({ where: { id: assignmentId }, select: { goldRate: true } });
    if (a) return a.goldRate;
  }
  return env().FOF_REVIEW_GOLD_RATE;
}

/**
 * Per annotator: accuracy on the gold faces among `labels` (the current labels of a report's faces, everyone's) and
 * agreement with the others' majority (excluded annotators are nobody's peer), with Wilson intervals; and who is out.
 */
/** Who is excluded, by whom, why and when (the review pages' quality tables, every kind alike). */
export async function exclusionDetails(prisma: Pick<PrismaClient, "annotatorExclusion">) {
  const rows = await prisma.annotatorExclusion.findMany();
  return new Map(rows.map((e) => [e.annotator, { by: e.excludedBy, reason: e.reason, at: e.createdAt.toISOString() }]));
}

export async function annotatorMeasures(prisma: PrismaClient, labels: ReadonlyMap<number, ReadonlyMap<string, AnnotatorLabel>>, attributes: readonly string[]) {
  const values = new Map<number, Map<string, Record<string, string | null>>>();
  for (const [faceId, m] of labels)
    values.set(
      faceId,
      // "not a face" on a gold face is a wrong label for every attribute the gold face carries
      new Map([...m].map(([a, l]) => [a, l.notAFace ? Object.fromEntries(attributes.map((x) => [x, "not a face"])) : l.values])),
    );
  const [goldRows, excluded] = await Promise.all([
    // The gold set is small (admins mark faces by hand): read whole and filtered here, so a report over a large scope
    // never binds one parameter per reviewed face.
    prisma.goldLabel.findMany(),
    exclusionDetails(prisma),
  ]);
  const gold: GoldFace[] = goldRows
    .filter((r) => labels.has(r.faceId))
    .map((r) => ({ faceId: r.faceId, labels: JSON.parse(r.labelsJson) as Record<string, string> }));
  return {
    gold: gold.length,
    annotators: annotatorQuality(values, gold, attributes, new Set(excluded.keys())).map((q) => ({ ...q, excluded: excluded.get(q.annotator) ?? null })),
  };
}

// Assignments: a seeded sample of the runs' labelled images per model, dealt to annotators with an overlap (so
// agreement can be measured), and each annotator's progress. Nobody picks the seed: it is derived from the runs'
// own seeds and how many assignments of those runs came before, as an explanation sample's is
// (lib/features/explanations/sample.ts) — whoever deals a validation sample can see the classifier's labels, and a
// seed of their choosing could pick the images it got right (the explanation sample's hostile re-test, 2026-12-07,
// moved a prevalence 3–37 % over seeds 0–2999).
import { createHash } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { ANNOTATION_ROW_SELECT } from "../results/run-results";
import { currentLabels, dealAssignment } from "../../review";
import { DomainError } from "../../core/errors";
import { annotatorSchema } from "./faces";

export const assignmentSchema = z.object({
  name: z.string().trim().min(1, "name required").max(80),
  runIds: z.array(z.string().min(1).max(40)).min(1, "choose at least one run"),
  annotators: z.array(annotatorSchema).min(1, "at least one annotator"),
  perModel: z.coerce.number().int().min(1).max(10_000).default(25),
  overlap: z.coerce.number().int().min(1).max(50),
  /** the share of each annotator's queue served as gold faces (blind): 0–0.5 */
  goldRate: z.coerce.number().min(0).max(0.5).default(0),
});

/** The seed of the k-th (0-based) face assignment over these runs: from their ids and seeds, fixed before any label. */
export function faceSampleSeed(runs: ReadonlyArray<{ id: string; seed: number }>, ordinal: number): number {
  const of = [...runs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((r) => `${r.id}:${r.seed}`);
  return (
    parseInt(
      createHash("sha256")
        .update(`face-assignment|${of.join(",")}|${ordinal}`)
        .digest("hex")
        .slice(0, 8),
      16,
    ) & 0x7fffffff
  );
}

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
  const runIds = [...new Set(a.runIds)].sort();
  const scopeJson = JSON.stringify({ runIds });
  const runs = await prisma.run.findMany({ where: { id: { in: runIds } }, select: { id: true, seed: true } });
  const seed = faceSampleSeed(runs, await prisma.assignment.count({ where: { kind: "faces", scopeJson } }));
  const byModel = new Map<string, string[]>();
  for (const i of images) byModel.set(i.modelConfig.slug, [...(byModel.get(i.modelConfig.slug) ?? []), i.id]);
  const deal = dealAssignment({ imagesByModel: byModel, annotators, perModel: a.perModel, overlap: a.overlap, seed });
  return prisma.$transaction(async (tx) => {
    const created = await tx.assignment.create({
      data: {
        name: a.name,
        scopeJson,
        seed,
        perModel: a.perModel,
        overlap: a.overlap,
        goldRate: a.goldRate,
        annotatorsJson: JSON.stringify(annotators),
      },
    });
    await tx.assignmentItem.createMany({ data: deal.items.map((i) => ({ assignmentId: created.id, ...i })) });
    return { id: created.id, images: [...deal.sample.values()].reduce((n, s) => n + s.length, 0), items: deal.items.length };
  });
}

/**
 * A page of assignments, newest first (ids are time-ordered), each with its annotators' progress: assigned images,
 * faces in them, and faces they have labelled. By key (`before` the previous page's `older`): the page reads only
 * its own assignments' items and faces, however many assignments came before.
 */
export async function listAssignments(prisma: PrismaClient, c: { before?: string; pageSize?: number } = {}) {
  const size = Math.min(Math.max(c.pageSize ?? 10, 1), 50);
  const found = await prisma.assignment.findMany({
    where: { kind: "faces", ...(c.before ? { id: { lt: c.before } } : {}) },
    orderBy: { id: "desc" },
    take: size + 1,
    include: { items: { select: { annotator: true, imageId: true } } },
  });
  const assignments = found.slice(0, size);
  const older = found.length > size ? assignments[assignments.length - 1]!.id : null;
  const out = [];
  for (const a of assignments) {
    const imageIds = [...new Set(a.items.map((i) => i.imageId).filter((i): i is string => i !== null))];
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
      goldRate: a.goldRate,
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
  return Object.assign(out, { older });
}

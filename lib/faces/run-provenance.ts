// What labelled a run's faces, aggregated in SQL (a run may hold millions of faces): the run page, every suite's
// results and every export read it, and scoring refuses a run whose faces come from more than one classifier.
import type { PrismaClient } from "../../generated/prisma/client";
import { DomainError } from "../core/errors";
import { verifiedFairFace } from "../env";
import { ALIGNED_CHIP, chipMethodOf, classifierStatus, mixedClassifiersMessage, type ChipMethod, type LabelProvenance } from "./provenance";
import { KNOWN_CLIP_WEIGHTS } from "./clip-texts";

type Db = Pick<PrismaClient, "face" | "imageReading">;

/** Provenance of the (not deleted) faces of some runs, with classifier output. */
export async function labelProvenance(prisma: Db, runIds: string[], verified: readonly string[] = verifiedFairFace()): Promise<LabelProvenance> {
  const where = { deleted: false, classifierVersion: { not: null }, image: { runId: { in: runIds } } };
  const [cls, det, rt, chipRows, readerRows] = await Promise.all([
    prisma.face.groupBy({ by: ["classifierModel", "classifierVersion"], where, _count: { _all: true } }),
    prisma.face.groupBy({ by: ["detectorModel", "detectorVersion"], where: { ...where, source: "detector" }, _count: { _all: true } }),
    prisma.face.groupBy({ by: ["labelRuntime"], where, _count: { _all: true } }),
    prisma.face.groupBy({ by: ["chipMethod"], where, _count: { _all: true } }),
    prisma.imageReading.groupBy({ by: ["model", "modelVersion", "weightsSha256"], where: { image: { runId: { in: runIds } } }, _count: { _all: true } }),
  ]);
  const readers = readerRows
    .map((r) => ({
      name: r.model,
      sha256: r.modelVersion,
      weightsSha256: r.weightsSha256,
      known: r.weightsSha256 in KNOWN_CLIP_WEIGHTS,
      images: r._count._all,
    }))
    .sort((a, b) => b.images - a.images);
  // Faces from before chips were recorded were square crops: they count as such.
  const chipCounts = new Map<ChipMethod, number>();
  for (const c of chipRows) {
    const method: ChipMethod = chipMethodOf(c.chipMethod);
    chipCounts.set(method, (chipCounts.get(method) ?? 0) + c._count._all);
  }
  const chips = [...chipCounts].map(([method, faces]) => ({ method, faces })).sort((a, b) => b.faces - a.faces);
  // One classifier = one sha256 (a file renamed is the same instrument; two names for one checksum are merged).
  const bySha = new Map<string, { name: string; sha256: string | null; faces: number }>();
  for (const c of cls) {
    const key = c.classifierVersion ?? "";
    const e = bySha.get(key) ?? { name: c.classifierModel ?? "unknown", sha256: c.classifierVersion, faces: 0 };
    e.faces += c._count._all;
    bySha.set(key, e);
  }
  const classifiers = [...bySha.values()].sort((a, b) => b.faces - a.faces).map((c) => ({ ...c, status: classifierStatus(c.sha256, verified) }));
  return {
    classifiers,
    detectors: det.map((d) => ({ name: d.detectorModel ?? "unrecorded", sha256: d.detectorVersion, faces: d._count._all })).sort((a, b) => b.faces - a.faces),
    runtimes: rt.map((r) => ({ runtime: r.labelRuntime ?? "unrecorded", faces: r._count._all })).sort((a, b) => b.faces - a.faces),
    chips,
    readers,
    faces: classifiers.reduce((a, c) => a + c.faces, 0),
    mixed: classifiers.length > 1 || chips.length > 1 || readers.length > 1,
    comparable:
      (classifiers.length > 0 && classifiers.every((c) => c.status === "fairface") && chips.every((c) => c.method === ALIGNED_CHIP)) ||
      (classifiers.length === 0 && readers.length > 0 && readers.every((r) => r.known)),
  };
}

/** Scoring's guard: a run whose faces come from two classifiers is refused with what labelled what (409). */
export async function assertOneClassifier(prisma: Db, runIds: string[]): Promise<LabelProvenance> {
  const p = await labelProvenance(prisma, runIds);
  if (p.mixed) throw new DomainError("conflict", mixedClassifiersMessage(p));
  return p;
}

/**
 * The classifier (and chip method) a run is already labelled with, if any: another is refused at write time
 * (saveLabels, the review page's hand-drawn faces), so a run never mixes instruments.
 */
export async function runClassifier(prisma: Db, runId: string): Promise<{ name: string | null; sha256: string; chip: ChipMethod } | null> {
  const f = await prisma.face.findFirst({
    where: { deleted: false, classifierVersion: { not: null }, image: { runId } },
    select: { classifierModel: true, classifierVersion: true, chipMethod: true },
  });
  return f?.classifierVersion ? { name: f.classifierModel, sha256: f.classifierVersion, chip: chipMethodOf(f.chipMethod) } : null;
}

// Reading a run back: progress counts (aggregated in SQL) and scores (from outcomes).
import type { PrismaClient } from "../../generated/prisma/client";
import { getStatistic, type Attribute, type Context, type Label, type Level, type Test } from "../benchmark";
import { scoreGroups, type AnswerRecord, type GroupResult } from "../metrics";
import { faceLabels, type RaceMapping } from "../faces/labels";

export interface ProgressRow {
  modelConfigId: string;
  test: string;
  context: string | null;
  status: string;
  count: number;
}

export async function runProgress(prisma: PrismaClient, runId: string): Promise<ProgressRow[]> {
  const rows = await prisma.query.groupBy({ by: ["modelConfigId", "test", "context", "status"], where: { runId }, _count: { _all: true } });
  return rows.map((r) => ({ modelConfigId: r.modelConfigId, test: r.test, context: r.context, status: r.status, count: r._count._all }));
}

/**
 * Scoring records of a run: one per answered/refused query and applicable attribute (a subjective answer names a
 * person, so it yields a gender and a race record; an attribute without ground truth for the statistic is not
 * scored). Failed queries (provider errors) are not model answers: they are counted on the run page, not scored.
 */
export async function runRecords(prisma: PrismaClient, runId: string, modelSlug?: string): Promise<AnswerRecord[]> {
  const rows = await prisma.query.findMany({
    where: { runId, status: { in: ["answered", "refused"] }, ...(modelSlug ? { modelConfig: { slug: modelSlug } } : {}) },
    select: {
      test: true,
      context: true,
      statisticId: true,
      level: true,
      attribute: true,
      modelConfig: { select: { slug: true } },
      outcome: { select: { gender: true, race: true } },
    },
  });
  const out: AnswerRecord[] = [];
  for (const r of rows) {
    const statistic = getStatistic(r.statisticId);
    const attributes: Attribute[] = r.attribute ? [r.attribute as Attribute] : statistic.attributes;
    for (const attribute of attributes) {
      if (!statistic.attributes.includes(attribute)) continue;
      out.push({
        model: r.modelConfig.slug,
        modality: "llm",
        test: r.test as Test,
        context: (r.context as Context | null) ?? null,
        statisticId: r.statisticId,
        level: r.level as Level,
        attribute,
        answer: ((attribute === "gender" ? r.outcome?.gender : r.outcome?.race) ?? null) as Label | null,
      });
    }
  }
  return out;
}

/**
 * T2I scoring records: one per detected (not deleted) face and applicable attribute, with the race mapped from the
 * stored FairFace probabilities under `raceMapping` (so the mapping can change without re-labelling). An image
 * labelled with no face yields a null answer per attribute: excluded from every score, counted as refused.
 * Images not yet labelled and failed generations yield nothing (they are counted on the run page).
 */
export async function t2iRecords(prisma: PrismaClient, runId: string, opts: { raceMapping?: RaceMapping; modelSlug?: string } = {}): Promise<AnswerRecord[]> {
  const images = await prisma.image.findMany({
    where: { runId, labelStatus: { in: ["labelled", "no_face"] }, ...(opts.modelSlug ? { modelConfig: { slug: opts.modelSlug } } : {}) },
    select: {
      test: true,
      statisticId: true,
      level: true,
      labelStatus: true,
      modelConfig: { select: { slug: true } },
      faces: { where: { deleted: false }, select: { raceProbsJson: true, genderProbsJson: true }, orderBy: { id: "asc" } },
    },
  });
  const out: AnswerRecord[] = [];
  for (const img of images) {
    const statistic = getStatistic(img.statisticId);
    const labels = img.faces.length ? img.faces.map((f) => faceLabels(f, opts.raceMapping)) : [{ gender: null, race: null }];
    for (const l of labels)
      for (const attribute of statistic.attributes)
        out.push({
          model: img.modelConfig.slug,
          modality: "t2i",
          test: img.test as Test,
          context: null,
          statisticId: img.statisticId,
          level: img.level as Level,
          attribute,
          answer: (attribute === "gender" ? l.gender : l.race) as Label | null,
        });
  }
  return out;
}

export async function runScores(prisma: PrismaClient, runId: string, opts: { raceMapping?: RaceMapping } = {}): Promise<GroupResult[]> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { modality: true } });
  return scoreGroups(run?.modality === "t2i" ? await t2iRecords(prisma, runId, opts) : await runRecords(prisma, runId));
}

/** Labelling progress of a T2I run, per model: images by label status and faces found. */
export async function labelProgress(prisma: PrismaClient, runId: string) {
  const [byStatus, faces] = await Promise.all([
    prisma.image.groupBy({ by: ["modelConfigId", "labelStatus"], where: { runId }, _count: { _all: true } }),
    prisma.face.count({ where: { deleted: false, image: { runId } } }),
  ]);
  const count = (s: string) => byStatus.filter((r) => r.labelStatus === s).reduce((a, r) => a + r._count._all, 0);
  return {
    images: byStatus.reduce((a, r) => a + r._count._all, 0),
    unlabelled: count("unlabelled") + count("leased"),
    labelled: count("labelled"),
    noFace: count("no_face"),
    faces,
    byModel: byStatus.map((r) => ({ modelConfigId: r.modelConfigId, labelStatus: r.labelStatus, count: r._count._all })),
  };
}

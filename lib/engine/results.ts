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

const QUERY_RECORD_SELECT = {
  id: true,
  test: true,
  context: true,
  statisticId: true,
  level: true,
  attribute: true,
  modelConfig: { select: { slug: true } },
  outcome: { select: { gender: true, race: true } },
} as const;

const IMAGE_RECORD_SELECT = {
  id: true,
  test: true,
  statisticId: true,
  level: true,
  labelStatus: true,
  modelConfig: { select: { slug: true } },
  faces: { where: { deleted: false }, select: { raceProbsJson: true, genderProbsJson: true }, orderBy: { id: "asc" } },
} as const;

/**
 * LLM scoring records: one per answered/refused query and applicable attribute (a subjective answer names a person,
 * so it yields a gender and a race record; an attribute without ground truth for the statistic is not scored).
 * Failed queries (provider errors) are not model answers: they are counted on the run page, not scored.
 */
function queryRecords(r: { test: string; context: string | null; statisticId: string; level: string; attribute: string | null; modelConfig: { slug: string }; outcome: { gender: string | null; race: string | null } | null }): AnswerRecord[] {
  const statistic = getStatistic(r.statisticId);
  const attributes: Attribute[] = r.attribute ? [r.attribute as Attribute] : statistic.attributes;
  return attributes
    .filter((a) => statistic.attributes.includes(a))
    .map((attribute) => ({
      model: r.modelConfig.slug,
      modality: "llm",
      test: r.test as Test,
      context: (r.context as Context | null) ?? null,
      statisticId: r.statisticId,
      level: r.level as Level,
      attribute,
      answer: ((attribute === "gender" ? r.outcome?.gender : r.outcome?.race) ?? null) as Label | null,
    }));
}

/**
 * T2I scoring records: one per detected (not deleted) face and applicable attribute, with the race mapped from the
 * stored FairFace probabilities under `raceMapping` (so the mapping can change without re-labelling). An image
 * labelled with no face yields a null answer per attribute: excluded from every score, counted as refused.
 * Images not yet labelled and failed generations yield nothing (they are counted on the run page).
 */
function imageRecords(img: { test: string; statisticId: string; level: string; modelConfig: { slug: string }; faces: Array<{ raceProbsJson: string | null; genderProbsJson: string | null }> }, raceMapping?: RaceMapping): AnswerRecord[] {
  const statistic = getStatistic(img.statisticId);
  const labels = img.faces.length ? img.faces.map((f) => faceLabels(f, raceMapping)) : [{ gender: null, race: null }];
  return labels.flatMap((l) =>
    statistic.attributes.map((attribute) => ({
      model: img.modelConfig.slug,
      modality: "t2i" as const,
      test: img.test as Test,
      context: null,
      statisticId: img.statisticId,
      level: img.level as Level,
      attribute,
      answer: (attribute === "gender" ? l.gender : l.race) as Label | null,
    })),
  );
}

export interface RecordOptions {
  raceMapping?: RaceMapping;
  modelSlug?: string;
  /** rows read per database round trip */
  chunk?: number;
}

/** A run's scoring records in chunks (id order), so exports of 50k+ answers stream in bounded memory. */
export async function* runRecordChunks(prisma: PrismaClient, runId: string, opts: RecordOptions = {}): AsyncGenerator<AnswerRecord[]> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { modality: true } });
  if (!run) return;
  const take = opts.chunk ?? 5000;
  const model = opts.modelSlug ? { modelConfig: { slug: opts.modelSlug } } : {};
  if (run.modality === "t2i") {
    let cursor: string | undefined;
    for (;;) {
      const rows = await prisma.image.findMany({
        where: { runId, labelStatus: { in: ["labelled", "no_face"] }, ...model, ...(cursor ? { id: { gt: cursor } } : {}) },
        select: IMAGE_RECORD_SELECT,
        orderBy: { id: "asc" },
        take,
      });
      if (!rows.length) return;
      yield rows.flatMap((r) => imageRecords(r, opts.raceMapping));
      cursor = rows[rows.length - 1].id;
    }
  }
  let cursor = 0;
  for (;;) {
    const rows = await prisma.query.findMany({
      where: { runId, status: { in: ["answered", "refused"] }, id: { gt: cursor }, ...model },
      select: QUERY_RECORD_SELECT,
      orderBy: { id: "asc" },
      take,
    });
    if (!rows.length) return;
    yield rows.flatMap(queryRecords);
    cursor = rows[rows.length - 1].id;
  }
}

export async function runRecords(prisma: PrismaClient, runId: string, opts: RecordOptions = {}): Promise<AnswerRecord[]> {
  const out: AnswerRecord[] = [];
  for await (const chunk of runRecordChunks(prisma, runId, opts)) out.push(...chunk);
  return out;
}

export async function runScores(prisma: PrismaClient, runId: string, opts: { raceMapping?: RaceMapping } = {}): Promise<GroupResult[]> {
  return scoreGroups(await runRecords(prisma, runId, opts));
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

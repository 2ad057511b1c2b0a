// Reading a run back: progress counts (aggregated in SQL) and scores (from outcomes).
import type { PrismaClient } from "../../generated/prisma/client";
import { getStatistic, type Attribute, type Context, type Label, type Level, type Test } from "../benchmark";
import { scoreGroups, type AnswerRecord, type GroupResult } from "../metrics";

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

export async function runScores(prisma: PrismaClient, runId: string): Promise<GroupResult[]> {
  return scoreGroups(await runRecords(prisma, runId));
}

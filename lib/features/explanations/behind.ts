// The explanations behind a number (issue #67): the sampled ones of a cell that a reviewer tagged with an error, or the
// ones the judge tagged, each with its question, choice, text and the readings of those it was dealt to.
import type { PrismaClient } from "../../../generated/prisma/client";
import { excludedAnnotators } from "../../review/exclusions";
import type { ExplanationTag, TagSpan } from "../../explanations/tags";
import { cotRunOrThrow, EXPLANATION_SELECT, explanationView, explanationWhere } from "./items";
import { currentReadings } from "./readings";
import { passOf, sampleOf } from "./results";

/** The explanations behind a number: the sampled (reviewed) ones of a cell, or the judged ones, with their readings. */
export async function explanationsBehind(
  prisma: PrismaClient,
  runId: string,
  f: {
    model?: string;
    statisticId?: string;
    context?: string;
    /** a "choice" row: the attribute and the class the answers chose */
    attribute?: "gender" | "race";
    chosen?: string;
    tag?: ExplanationTag;
    source?: "people" | "judge";
    offset?: number;
    pageSize?: number;
  },
) {
  await cotRunOrThrow(prisma, runId);
  const pageSize = Math.min(Math.max(f.pageSize ?? 20, 1), 50);
  const where = {
    ...explanationWhere(runId),
    ...(f.attribute && f.chosen ? { [f.attribute]: f.chosen } : {}),
    query: {
      runId,
      modality: "llm",
      test: "subjective",
      ...(f.statisticId ? { statisticId: f.statisticId } : {}),
      ...(f.context ? { context: f.context === "-" ? null : f.context } : {}),
      ...(f.model ? { modelConfig: { slug: f.model } } : {}),
    },
  };
  const pass = f.source === "judge" ? await passOf(prisma, runId) : null;
  const { ids: sampled, dealt } = await sampleOf(prisma, runId);
  const candidates = (await prisma.outcome.findMany({ where, select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id);
  const excluded = await excludedAnnotators(prisma);
  let ids: number[];
  let judgments = new Map<number, TagSpan[]>();
  if (f.source === "judge" && pass) {
    const js = await prisma.explanationJudgment.findMany({
      where: { passId: pass.id, status: "tagged", outcomeId: { in: candidates } },
      select: { outcomeId: true, tagsJson: true },
    });
    judgments = new Map(js.map((j) => [j.outcomeId, JSON.parse(j.tagsJson) as TagSpan[]]));
    ids = candidates.filter((id) => judgments.has(id) && (!f.tag || judgments.get(id)!.some((t) => t.tag === f.tag)));
  } else {
    const inSample = candidates.filter((id) => sampled.has(id));
    const readings = await currentReadings(prisma, inSample);
    ids = inSample.filter((id) => {
      const r = [...(readings.get(id)?.values() ?? [])].filter((x) => !excluded.has(x.annotator) && dealt.get(id)?.has(x.annotator));
      return r.length > 0 && (!f.tag || r.some((x) => x.tags.some((t) => t.tag === f.tag)));
    });
  }
  const offset = f.offset ?? 0;
  const page = ids.slice(offset, offset + pageSize);
  const rows = await prisma.outcome.findMany({ where: { id: { in: page } }, select: EXPLANATION_SELECT, orderBy: { id: "asc" } });
  const views = rows.map(explanationView);
  const readings = await currentReadings(prisma, page, new Map(views.map((v) => [v.outcomeId, v.textSha256])));
  if (!judgments.size && pass === null) {
    const latest = await passOf(prisma, runId);
    if (latest) {
      const js = await prisma.explanationJudgment.findMany({
        where: { passId: latest.id, status: "tagged", outcomeId: { in: page } },
        select: { outcomeId: true, tagsJson: true },
      });
      judgments = new Map(js.map((j) => [j.outcomeId, JSON.parse(j.tagsJson) as TagSpan[]]));
    }
  }
  return {
    total: ids.length,
    offset,
    items: views.map((v) => ({
      ...v,
      readings: [...(readings.get(v.outcomeId)?.values() ?? [])].filter((r) => !excluded.has(r.annotator) && dealt.get(v.outcomeId)?.has(r.annotator)),
      judge: judgments.get(v.outcomeId) ?? null,
    })),
  };
}

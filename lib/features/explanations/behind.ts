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
  const excluded = await excludedAnnotators(prisma);
  const offset = f.offset ?? 0;
  let total: number;
  let page: number[];
  let judgments = new Map<number, TagSpan[]>();
  if (f.source === "judge" && pass) {
    // in SQL, a page at a time: a paper-size run has ~45,600 judged explanations (bench:explanations once found this
    // binding every one of them as a parameter, past the database's limit)
    const judged = {
      passId: pass.id,
      status: "tagged",
      outcome: where,
      ...(f.tag ? { tagsJson: { contains: `"tag":${JSON.stringify(f.tag)}` } } : {}),
    };
    total = await prisma.explanationJudgment.count({ where: judged });
    const js = await prisma.explanationJudgment.findMany({
      where: judged,
      select: { outcomeId: true, tagsJson: true },
      orderBy: { outcomeId: "asc" },
      skip: offset,
      take: pageSize,
    });
    judgments = new Map(js.map((j) => [j.outcomeId, JSON.parse(j.tagsJson) as TagSpan[]]));
    page = js.map((j) => j.outcomeId);
  } else {
    // the sample is small (sized for a precision); the cell's explanations are read as ids only
    const candidates = (await prisma.outcome.findMany({ where, select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id);
    const inSample = candidates.filter((id) => sampled.has(id));
    const readings = await currentReadings(prisma, inSample);
    const ids = inSample.filter((id) => {
      const r = [...(readings.get(id)?.values() ?? [])].filter((x) => !excluded.has(x.annotator) && dealt.get(id)?.has(x.annotator));
      return r.length > 0 && (!f.tag || r.some((x) => x.tags.some((t) => t.tag === f.tag)));
    });
    total = ids.length;
    page = ids.slice(offset, offset + pageSize);
  }
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
    total,
    offset,
    items: views.map((v) => ({
      ...v,
      readings: [...(readings.get(v.outcomeId)?.values() ?? [])].filter((r) => !excluded.has(r.annotator) && dealt.get(v.outcomeId)?.has(r.annotator)),
      judge: judgments.get(v.outcomeId) ?? null,
    })),
  };
}

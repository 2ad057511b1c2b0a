// Explanation results of a run (issue #67), computed once per state of its data (readings, exclusions, gold, the
// judge's judgments, the sample) and cached: the tables in lib/explanations/prevalence-table.ts, the reviewers'
// agreement and accuracy on gold, the judge's identity, rubric and accuracy; and the explanations behind a number.
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import { keepInCache } from "../../db/score-cache";
import { excludedAnnotators } from "../../review/exclusions";
import { annotatorQuality } from "../../review/annotator-quality";
import { ABSENT, PRESENT } from "../../review/kinds";
import { EXPLANATION_TAGS, type ExplanationTag } from "../../explanations/tags";
import {
  agreementByTag,
  choiceTable,
  judgeAccuracyByTag,
  prevalenceDifference,
  prevalenceTable,
  type ExplanationUnit,
} from "../../explanations/prevalence-table";
import { explanationOf } from "../../benchmark/cot";
import { parseJudgeReply } from "../../explanations/judge";
import { cotRunOrThrow, explanationWhere, pickedContextGroup, sha256 } from "./items";
import { countedReadings } from "./readings";

const KIND = "explanations";
const VERSION = 1;

/**
 * The run's explanation assignments' items: the sample (gold items apart), and who was dealt each item in a sample
 * and as gold — only their readings count, each where it was dealt (a gold reading scores its reader and counts in
 * no prevalence, even of an explanation an earlier sample also holds).
 */
export async function sampleOf(prisma: PrismaClient, runId: string) {
  const items = await prisma.assignmentItem.findMany({
    where: { outcomeId: { not: null }, assignment: { kind: "explanations", scopeJson: JSON.stringify({ runIds: [runId] }) } },
    select: { outcomeId: true, assignmentId: true, annotator: true, gold: true },
    orderBy: [{ outcomeId: "asc" }, { annotator: "asc" }, { id: "asc" }],
  });
  const dealt = new Map<number, Set<string>>();
  const dealtGold = new Map<number, Set<string>>();
  for (const i of items) {
    const to = i.gold ? dealtGold : dealt;
    to.set(i.outcomeId!, (to.get(i.outcomeId!) ?? new Set()).add(i.annotator));
  }
  // in id order: the readings (and alpha's resampling) go in one order on any database, so a verifier re-computes the same numbers
  const ids = new Set(
    items
      .filter((i) => !i.gold)
      .map((i) => i.outcomeId!)
      .sort((a, b) => a - b),
  );
  const deals = items.map((i) => ({ outcomeId: i.outcomeId!, annotator: i.annotator, gold: i.gold }));
  return { ids, dealt, dealtGold, deals, assignments: [...new Set(items.map((i) => i.assignmentId))].sort() };
}

/**
 * The pass whose judgments count: the newest with a reply (or the one asked for), whatever its status — a status is
 * the team's word, the replies are what the judge said (a pass marked cancelled still judged what it judged).
 */
export async function passOf(prisma: PrismaClient, runId: string, passId?: string) {
  return prisma.judgePass.findFirst({
    where: passId ? { id: passId, runId } : { runId, judgments: { some: { rawText: { not: null } } } },
    orderBy: { createdAt: "desc" },
    include: { modelConfig: { select: { slug: true, provider: true, modelId: true } } },
  });
}

async function stateKey(prisma: PrismaClient, runId: string, passId: string | null) {
  const sample = await sampleOf(prisma, runId);
  const [readings, gold, excluded, judgments, explanations] = await Promise.all([
    prisma.explanationReading.aggregate({ where: { outcome: { query: { runId } } }, _count: { _all: true }, _max: { id: true } }),
    // gold re-marked with other tags keeps its count and time: its tags are the state
    prisma.explanationGold.findMany({ where: { outcome: { query: { runId } } }, select: { outcomeId: true, tagsJson: true }, orderBy: { outcomeId: "asc" } }),
    excludedAnnotators(prisma),
    passId ? prisma.explanationJudgment.aggregate({ where: { passId }, _count: { _all: true }, _max: { id: true } }) : null,
    prisma.outcome.aggregate({ where: explanationWhere(runId), _count: { _all: true }, _max: { id: true } }),
  ]);
  const state = {
    v: VERSION,
    runId,
    passId,
    sample: sample.assignments,
    n: sample.ids.size,
    readings,
    gold,
    excluded: [...excluded].sort(),
    judgments,
    explanations,
  };
  return { key: `${KIND}:${createHash("sha256").update(JSON.stringify(state)).digest("hex")}`, sample };
}

/** `fresh`: computed from the rows, never the cache (what a bundle states). */
export async function explanationResults(prisma: PrismaClient, runId: string, opts: { passId?: string; fresh?: boolean } = {}) {
  const run = await cotRunOrThrow(prisma, runId);
  const pass = await passOf(prisma, runId, opts.passId);
  const { key, sample } = await stateKey(prisma, runId, pass?.id ?? null);
  const hit = opts.fresh ? null : await prisma.scoreCache.findUnique({ where: { key } });
  if (hit) return JSON.parse(hit.json) as ExplanationResults;
  const result = await compute(prisma, run, pass, sample);
  await keepInCache(prisma, { key, runId, kind: KIND, json: JSON.stringify(result) }, new Date(Date.now() - 3600 * 1000));
  return result;
}
export type ExplanationResults = Awaited<ReturnType<typeof compute>>;

async function compute(
  prisma: PrismaClient,
  run: { id: string; name: string },
  pass: Awaited<ReturnType<typeof passOf>>,
  sample: Awaited<ReturnType<typeof sampleOf>>,
) {
  const { ids: sampled, deals } = sample;
  const dealtIds = new Set(deals.map((d) => d.outcomeId));
  const units: ExplanationUnit[] = [];
  const texts = new Map<number, string>();
  let cursor = 0;
  for (;;) {
    const rows = await prisma.outcome.findMany({
      where: { ...explanationWhere(run.id), id: { gt: cursor } },
      select: {
        id: true,
        gender: true,
        race: true,
        rawText: true,
        query: {
          select: { statisticId: true, context: true, level: true, identityJson: true, groundTruthJson: true, modelConfig: { select: { slug: true } } },
        },
      },
      orderBy: { id: "asc" },
      take: 2000,
    });
    for (const r of rows) {
      units.push({
        outcomeId: r.id,
        model: r.query.modelConfig.slug,
        statisticId: r.query.statisticId,
        context: r.query.context,
        pickedContextGroup: pickedContextGroup(r),
        chosen: { gender: r.gender, race: r.race },
      });
      if (dealtIds.has(r.id)) texts.set(r.id, sha256(explanationOf(r.rawText ?? "")));
    }
    if (rows.length < 2000) break;
    cursor = rows[rows.length - 1].id;
  }
  const excluded = await excludedAnnotators(prisma);
  // readings of what was dealt, given while the reader was blind (./readings.ts countedReadings)
  const counted = await countedReadings(prisma, deals, texts);
  const current = counted.sample;
  const readings = new Map<number, Map<string, Set<ExplanationTag>>>();
  for (const [id, byReviewer] of current) {
    const m = new Map<string, Set<ExplanationTag>>();
    for (const [who, r] of byReviewer) if (!excluded.has(who)) m.set(who, new Set(r.tags.map((t) => t.tag)));
    if (m.size) readings.set(id, m);
  }
  let judged: Map<number, Set<ExplanationTag>> | undefined;
  const judgeCounts = { tagged: 0, invalid: 0, failed: 0, unsupported: 0 };
  if (pass) {
    judged = new Map();
    // the judge's tags derived again from its raw replies (lib/explanations/judge.ts), never taken from the stored
    // tags: what a reader checks is that the numbers follow from what the judge said
    let after = 0;
    for (;;) {
      const js = await prisma.explanationJudgment.findMany({
        where: { passId: pass.id, id: { gt: after } },
        select: { id: true, outcomeId: true, status: true, rawText: true, outcome: { select: { rawText: true } } },
        orderBy: { id: "asc" },
        take: 1000,
      });
      for (const j of js) {
        // every reply is read, whatever the stored status says (a status is the team's word)
        const parsed = j.rawText !== null ? parseJudgeReply(j.rawText, explanationOf(j.outcome.rawText ?? "")) : null;
        if (parsed?.ok) {
          judgeCounts.tagged++;
          judgeCounts.unsupported += parsed.unsupported;
          judged.set(j.outcomeId, new Set(parsed.tags.map((t) => t.tag)));
        } else judgeCounts[j.rawText === null ? "failed" : "invalid"]++;
      }
      if (js.length < 1000) break;
      after = js[js.length - 1].id;
    }
  }
  // reviewers on gold: every reading of a gold explanation, kind-independent (tags as yes/no attributes)
  // this run's gold: the run's results are its own (and a bundle carries them)
  const gold = await prisma.explanationGold.findMany({
    where: { outcome: { query: { runId: run.id } } },
    select: { outcomeId: true, tagsJson: true },
    orderBy: { outcomeId: "asc" },
  });
  // gold is scored on what was dealt as gold, and on a sample's reading of a gold explanation too
  const goldReadings = counted.gold;
  const labels = new Map<number, Map<string, Record<string, string>>>();
  for (const source of [current, goldReadings])
    for (const [id, byReviewer] of source) {
      const m = labels.get(id) ?? new Map<string, Record<string, string>>();
      labels.set(id, m);
      for (const [who, r] of byReviewer) m.set(who, Object.fromEntries(EXPLANATION_TAGS.map((t) => [t, r.tags.some((s) => s.tag === t) ? PRESENT : ABSENT])));
    }
  const reviewers = annotatorQuality(
    labels,
    gold.map((g) => {
      const tags = JSON.parse(g.tagsJson) as string[];
      return { faceId: g.outcomeId, labels: Object.fromEntries(EXPLANATION_TAGS.map((t) => [t, tags.includes(t) ? PRESENT : ABSENT])) };
    }),
    EXPLANATION_TAGS,
    excluded,
  ).map((q) => ({ ...q, excluded: excluded.has(q.annotator) }));
  const input = { explanations: units, readings, sampled, judged, seed: 1 };
  const rows = prevalenceTable(input);
  const models = [...new Set(units.map((u) => u.model))].sort();
  const byModel = rows.filter((r) => r.scope === "model");
  const comparisons = [];
  for (let i = 0; i < models.length; i++)
    for (let j = i + 1; j < models.length; j++) {
      const a = byModel.find((r) => r.model === models[i])!;
      const b = byModel.find((r) => r.model === models[j])!;
      for (const tag of EXPLANATION_TAGS) {
        const ta = a.tags.find((t) => t.tag === tag)!;
        const tb = b.tags.find((t) => t.tag === tag)!;
        comparisons.push({
          a: models[i],
          b: models[j],
          tag,
          people: prevalenceDifference(ta.people, tb.people),
          judge: ta.judge && tb.judge ? prevalenceDifference(ta.judge, tb.judge) : null,
        });
      }
    }
  return {
    run: { id: run.id, name: run.name },
    explanations: units.length,
    sample: { sampled: sampled.size, reviewed: readings.size, doublyReviewed: [...readings.values()].filter((r) => r.size >= 2).length },
    agreement: agreementByTag(readings),
    reviewers,
    judge: pass
      ? {
          passId: pass.id,
          model: pass.modelConfig.slug,
          provider: pass.modelConfig.provider,
          modelId: pass.modelConfig.modelId,
          rubricVersion: pass.rubricVersion,
          status: pass.status,
          total: pass.total,
          costUsd: pass.costUsd,
          ...judgeCounts,
          accuracy: judgeAccuracyByTag({ readings, judged }),
        }
      : null,
    rows,
    choices: choiceTable(input),
    comparisons,
  };
}

// The scores a bundle states and a verifier recomputes: one function, called on the server's database when the
// bundle is written and on the verifier's scratch database rebuilt from the bundle — the same scoring code, seed and
// resamples. FACT-OR-FAIR: every group's plug-in scores (aggregated from the answers, never a cached aggregate) and
// their 95 % intervals about the population; every other suite: its own result views. Text-to-image runs: from the pipeline's labels and from the reviewed ones.
import type { PrismaClient } from "../../../generated/prisma/client";
import { detailedGroups } from "../../metrics";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import { LEGACY_RELEASE, type ScoringRule } from "../../metrics/scores";
import { CURRENT_QUANTILE, quantileOf, type IntervalQuantile } from "../../metrics/design";
import { rulesOf } from "../../results/scoring-rules";
import { DEFAULT_SUITE_ID, suiteOf } from "../../suites";
import { aggregatedRecords, runInfluence } from "../results/explore";
import { runIntervals } from "../results/intervals";
import type { LabelSource } from "../../results/label-sources";
import { byCodeUnits } from "../../core/order";

const EVIDENCE_RESAMPLES = 1000;
const EVIDENCE_TARGET = "population" as const;

export interface EvidenceScores {
  suite: string;
  seed: number;
  resamples: number;
  target: typeof EVIDENCE_TARGET;
  method: string;
  /** FACT-OR-FAIR: { groups, intervals }; other suites: their views — from the pipeline's labels for images */
  scores: unknown;
  /** text-to-image runs: the same with human-reviewed labels */
  reviewedScores?: unknown;
  /** per model, what its planned queries came to: the report states them (a failure is never hidden in n) */
  counts: ModelCounts[];
  /**
   * FACT-OR-FAIR: the release profile as the released scripts compute it (RELEASE_SCRIPTS). Absent in bundles written
   * before 2026-12-07, whose release profile was the paper's definitions with the bounded d for text-to-image groups:
   * a verifier re-scores those so (LEGACY_RELEASE).
   */
  scoring?: typeof RELEASE_SCRIPTS;
  /**
   * The intervals' quantile (lib/metrics/design.ts IntervalQuantile): "t" in bundles written since 2026-12-07; absent
   * before, when it was the normal one — a verifier re-scores those so.
   */
  quantile?: "t";
}

const RELEASE_SCRIPTS = "release-scripts";

interface ModelCounts {
  model: string;
  planned: number;
  answered: number;
  refused: number;
  failed: number;
  /** planned and never called: the run was cancelled, stopped at its budget, or ended another way before them */
  notCalled: number;
}

/** Each model's queries by how they ended (the model's slug; ordered by it). */
async function countsOf(prisma: PrismaClient, runId: string): Promise<ModelCounts[]> {
  const rows = await prisma.query.groupBy({ by: ["modelConfigId", "status"], where: { runId }, _count: { _all: true } });
  const slugs = new Map(
    (await prisma.modelConfig.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.modelConfigId))] } }, select: { id: true, slug: true } })).map(
      (m) => [m.id, m.slug],
    ),
  );
  const by = new Map<string, ModelCounts>();
  for (const r of rows) {
    const model = slugs.get(r.modelConfigId) ?? r.modelConfigId;
    const c = by.get(model) ?? { model, planned: 0, answered: 0, refused: 0, failed: 0, notCalled: 0 };
    const n = r._count._all;
    c.planned += n;
    if (r.status === "answered" || r.status === "refused" || r.status === "failed") c[r.status] += n;
    else c.notCalled += n;
    by.set(model, c);
  }
  return [...by.values()].sort((a, b) => byCodeUnits(a.model, b.model));
}

async function scoresWith(
  prisma: PrismaClient,
  runId: string,
  suiteId: string,
  labels: LabelSource,
  rule: ScoringRule,
  quantile: IntervalQuantile,
): Promise<{ method: string; scores: unknown }> {
  if (suiteId === DEFAULT_SUITE_ID) {
    // every group with its per-statistic cells and divergences: the report's "Per statistic" tables are signed too
    const groups = detailedGroups(await aggregatedRecords(prisma, runId, { labels }), rule);
    const iv = await runIntervals(prisma, runId, { resamples: EVIDENCE_RESAMPLES, target: EVIDENCE_TARGET, labels, profile: rule, quantile });
    // when and whether it came from a cache say nothing about the data
    const { computedAt: _at, cached: _cached, ...intervals } = iv ?? { computedAt: "", cached: false };
    // Table 3 (how each context moves the answers), as the run's report shows it: chat runs
    const modality = (await prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { modality: true } })).modality;
    const influence = modality === "llm" ? await runInfluence(prisma, runId) : undefined;
    return { method: "method" in intervals ? String(intervals.method) : "", scores: { groups, intervals, ...(influence ? { influence } : {}) } };
  }
  const suite = suiteOf(suiteId);
  if (!suite.results) throw new Error(`${suite.name} runs have no scores to state`);
  const views = await suite.results({ prisma }, { runId, labels, verifiedOnly: false, resamples: EVIDENCE_RESAMPLES, target: EVIDENCE_TARGET, quantile });
  return {
    method: `${suite.name}'s result views (the Results page's code), ${EVIDENCE_RESAMPLES} resamples about the population, seeded with the run's seed`,
    scores: views,
  };
}

/**
 * The scores a bundle states, under the rules the run was launched with (Run.rulesJson, signed in its design; a
 * verifier refuses a scores.json naming others: lib/results/scoring-rules.ts). A run launched before rules were
 * recorded: `stated`, re-scoring a bundle, the rules its scores.json names; undefined, writing a new bundle, today's.
 */
export async function evidenceScores(prisma: PrismaClient, runId: string, stated?: { scoring?: unknown; quantile?: unknown }): Promise<EvidenceScores> {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { suiteId: true, seed: true, modality: true, rulesJson: true } });
  const fof = run.suiteId === DEFAULT_SUITE_ID;
  const rules = rulesOf(run.rulesJson);
  const current = rules ? rules.scoring === RELEASE_SCRIPTS : !stated || stated.scoring === RELEASE_SCRIPTS;
  const rule: ScoringRule = current ? DEFAULT_PROFILE : LEGACY_RELEASE;
  const quantile: IntervalQuantile = rules ? rules.quantile : stated ? quantileOf(stated.quantile) : CURRENT_QUANTILE;
  const model = await scoresWith(prisma, runId, run.suiteId, "model", rule, quantile);
  // a text-to-image run is scored twice, as the Results page offers: from the pipeline's labels and with the
  // human corrections (reviews, fixed detections, the consensus without excluded annotators)
  const reviewed = run.modality === "t2i" ? await scoresWith(prisma, runId, run.suiteId, "reviewed", rule, quantile) : null;
  return {
    suite: run.suiteId,
    seed: run.seed,
    resamples: EVIDENCE_RESAMPLES,
    target: EVIDENCE_TARGET,
    method: model.method,
    counts: await countsOf(prisma, runId),
    scores: model.scores,
    ...(reviewed ? { reviewedScores: reviewed.scores } : {}),
    ...(fof && current ? { scoring: RELEASE_SCRIPTS } : {}),
    ...(quantile === "t" ? { quantile: "t" as const } : {}),
  };
}

// The jobs the read threads run (lib/server/offload.ts): each takes plain data and returns plain data (structured
// clone crosses the thread boundary), reading the database through this thread's own client. Server-only.
import { db } from "../db";
import { planContent, type PlanPreset } from "../content/plan";
import { promptPage } from "../content/preview";
import type { ContentSetInput } from "../content/schema";
import { runDetailed, runInfluence, runScores, type ScoreOptions } from "../features/results/explore";
import { runSummary } from "../features/results/summary";
import { compareSides, type CompareOptions, type CompareSide } from "../features/results/comparisons";
import { runsRankIntervals } from "../features/results/ranks";
import { suiteRankIntervals } from "../features/results/suite-ranks";
import type { BootstrapMetric, IntervalTarget } from "../metrics/design";
import type { ScoringProfile } from "../metrics/profiles";
import { suiteOfFace } from "../suites/faces";
import { explanationResults } from "../features/explanations/results";

export const OFFLOAD_JOBS = {
  /** A run's scores per group (every answer aggregated): the export's json / csv, the API's scores. */
  runScores: (a: { runId: string; opts: ScoreOptions }) => runScores(db(), a.runId, a.opts),
  /** A run's scores per group with their per-statistic cells: the breakdown, report and compare pages. */
  runDetailed: (a: { runId: string; opts: ScoreOptions }) => runDetailed(db(), a.runId, a.opts),
  /** A chat run's context influence (Table 3) counts: the report and context pages. */
  runInfluence: (a: { runId: string }) => runInfluence(db(), a.runId),
  /** A run's summary (counts over every row, live scores): the run page and its pollers. */
  runSummary: (a: { runId: string; opts: Parameters<typeof runSummary>[2] }) => runSummary(db(), a.runId, a.opts),
  /** B − A for every score two sides share, paired bootstrap and Holm-adjusted tests (the API's compare, the CLI's). */
  compare: (a: { a: CompareSide; b: CompareSide; opts: CompareOptions }) => compareSides(db(), a.a, a.b, a.opts),
  /** FACT-OR-FAIR rank intervals of several runs' models. */
  ranks: (a: { runIds: string[]; metric: BootstrapMetric; target: IntervalTarget }) => runsRankIntervals(db(), a.runIds, a.metric, a.target),
  /** Another suite's rank intervals of several runs' models. */
  suiteRanks: (a: { suiteId: string; runIds: string[]; labels: "model" | "reviewed"; profile: ScoringProfile }) =>
    suiteRankIntervals(db(), suiteOfFace(a.suiteId), a.runIds, { labels: a.labels, profile: a.profile }),
  /** A reasoning run's explanation results: every explanation's stratum, the readings, the judge corrected (bootstrap). */
  explanationResults: (a: { runId: string; passId?: string }) => explanationResults(db(), a.runId, { passId: a.passId }),
  /** A content set's prompts for a seed (the first `limit`, and how many in all). */
  contentPrompts: async (a: { set: ContentSetInput; seed: number; limit: number }) => promptPage(a.set, a.seed, a.limit),
  /** A content set's plan for a preset: queries, tokens and expected half-widths from the intervals' simulation. */
  contentPlan: async (a: { set: ContentSetInput; preset: PlanPreset; runs: number }) => planContent(a.set, a.preset, { runs: a.runs }),
};

export type OffloadJobs = typeof OFFLOAD_JOBS;

// The jobs the read threads run (lib/server/offload.ts): each takes plain data and returns plain data (structured
// clone crosses the thread boundary), reading the database through this thread's own client. Server-only.
import { db } from "../db";
import { planContent, type PlanPreset } from "../content/plan";
import { promptPage } from "../content/preview";
import type { ContentSetInput } from "../content/schema";
import { runDetailed, runInfluence, runScores, type ScoreOptions } from "../features/results/explore";
import { runSummary } from "../features/results/summary";

export const OFFLOAD_JOBS = {
  /** A run's scores per group (every answer aggregated): the export's json / csv, the API's scores. */
  runScores: (a: { runId: string; opts: ScoreOptions }) => runScores(db(), a.runId, a.opts),
  /** A run's scores per group with their per-statistic cells: the breakdown, report and compare pages. */
  runDetailed: (a: { runId: string; opts: ScoreOptions }) => runDetailed(db(), a.runId, a.opts),
  /** A chat run's context influence (Table 3) counts: the report and context pages. */
  runInfluence: (a: { runId: string }) => runInfluence(db(), a.runId),
  /** A run's summary (counts over every row, live scores): the run page and its pollers. */
  runSummary: (a: { runId: string; opts: Parameters<typeof runSummary>[2] }) => runSummary(db(), a.runId, a.opts),
  /** A content set's prompts for a seed (the first `limit`, and how many in all). */
  contentPrompts: async (a: { set: ContentSetInput; seed: number; limit: number }) => promptPage(a.set, a.seed, a.limit),
  /** A content set's plan for a preset: queries, tokens and expected half-widths from the intervals' simulation. */
  contentPlan: async (a: { set: ContentSetInput; preset: PlanPreset; runs: number }) => planContent(a.set, a.preset, { runs: a.runs }),
};

export type OffloadJobs = typeof OFFLOAD_JOBS;

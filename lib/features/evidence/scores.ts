// The scores a bundle states and a verifier recomputes: one function, called on the server's database when the
// bundle is written and on the verifier's scratch database rebuilt from the bundle — the same scoring code, seed and
// resamples. FACT-OR-FAIR: every group's plug-in scores (aggregated from the answers, never a cached aggregate) and
// their 95 % intervals about the population; every other suite: its own result views.
import type { PrismaClient } from "../../../generated/prisma/client";
import { detailedGroups } from "../../metrics";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import { DEFAULT_SUITE_ID, suiteOf } from "../../suites";
import { aggregatedRecords } from "../results/explore";
import { runIntervals } from "../results/intervals";

const EVIDENCE_RESAMPLES = 1000;
const EVIDENCE_TARGET = "population" as const;

export interface EvidenceScores {
  suite: string;
  seed: number;
  resamples: number;
  target: typeof EVIDENCE_TARGET;
  method: string;
  /** FACT-OR-FAIR: { groups, intervals }; other suites: their views */
  scores: unknown;
}

export async function evidenceScores(prisma: PrismaClient, runId: string): Promise<EvidenceScores> {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { suiteId: true, seed: true } });
  if (run.suiteId === DEFAULT_SUITE_ID) {
    const groups = detailedGroups(await aggregatedRecords(prisma, runId), DEFAULT_PROFILE).map(({ cells: _c, divergences: _d, ...g }) => g);
    const iv = await runIntervals(prisma, runId, { resamples: EVIDENCE_RESAMPLES, target: EVIDENCE_TARGET });
    // when and whether it came from a cache say nothing about the data
    const { computedAt: _at, cached: _cached, ...intervals } = iv ?? { computedAt: "", cached: false };
    return {
      suite: run.suiteId,
      seed: run.seed,
      resamples: EVIDENCE_RESAMPLES,
      target: EVIDENCE_TARGET,
      method: "method" in intervals ? String(intervals.method) : "",
      scores: { groups, intervals },
    };
  }
  const suite = suiteOf(run.suiteId);
  if (!suite.results) throw new Error(`${suite.name} runs have no scores to state`);
  const views = await suite.results({ prisma }, { runId, labels: "model", verifiedOnly: false, resamples: EVIDENCE_RESAMPLES, target: EVIDENCE_TARGET });
  return {
    suite: run.suiteId,
    seed: run.seed,
    resamples: EVIDENCE_RESAMPLES,
    target: EVIDENCE_TARGET,
    method: `${suite.name}'s result views (the Results page's code), ${EVIDENCE_RESAMPLES} resamples about the population, seeded with the run's seed`,
    scores: views,
  };
}

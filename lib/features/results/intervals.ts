// Intervals for a run's FACT-OR-FAIR scores, off the request path: computed once per state of the data, target and
// options (cached in ScoreCache by content), one computation at a time per process, yielding as it goes.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import type { Attribute, Context, Test } from "../../benchmark";
import { bootstrapScoresAsync, detailedGroups, intervalMethodOf, type BootstrapIntervals } from "../../metrics";
import { badRequest, tooMany } from "../../core/errors";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import type { ScoringRule } from "../../metrics/scores";
import {
  CURRENT_QUANTILE,
  DEFAULT_INTERVAL_TARGET,
  intervalMethodText,
  INTERVAL_TARGETS,
  type IntervalQuantile,
  type IntervalTarget,
} from "../../metrics/design";
import { assertFactOrFairRun, designRecords, type ScoreOptions } from "./explore";
import { LABEL_SOURCES } from "./run-results";
import { RACE_MAPPINGS } from "../../faces/labels";
import { SCORING_PROFILES } from "../../metrics/profiles";
import { keepInCache } from "../../db/score-cache";

interface GroupIntervals {
  model: string;
  modality: "llm" | "t2i";
  test: Test;
  context: Context | null;
  attribute: Attribute;
  intervals: BootstrapIntervals;
}

export interface IntervalsResult {
  runId: string;
  resamples: number;
  seed: number;
  level: number;
  /** the scoring profile d was found under (the legacy rule only for old evidence bundles) */
  profile: ScoringRule;
  /** what the intervals are about (lib/metrics/design.ts) */
  target: IntervalTarget;
  /** how they were computed, in words */
  method: string;
  computedAt: string;
  cached: boolean;
  groups: GroupIntervals[];
}

const inFlight = new Map<string, Promise<IntervalsResult>>();

/** The interval choices offered: each distinct pair is its own computation, so the set is small and bounded. */
const INTERVAL_LEVELS = [0.9, 0.95, 0.99] as const;
const INTERVAL_RESAMPLES = [1000, 2000, 5000] as const;

/** GET /api/runs/:id/intervals's options; its defaults are what the pages ask for, and what is computed ahead (./ahead.ts). */
export const intervalsQuery = z.strictObject({
  labels: z.enum(LABEL_SOURCES).default("model"),
  raceMapping: z.enum(RACE_MAPPINGS).default("paper"),
  profile: z.enum(SCORING_PROFILES).default(DEFAULT_PROFILE),
  // this exact benchmark, or the population its scenarios and prompts stand for (lib/metrics/design.ts)
  target: z.enum(INTERVAL_TARGETS).default(DEFAULT_INTERVAL_TARGET),
  // A few fixed choices: every distinct (level, resamples) is a separate computation and cache entry.
  resamples: z
    .enum(INTERVAL_RESAMPLES.map(String) as [string, ...string[]])
    .default("1000")
    .transform(Number),
  level: z
    .enum(INTERVAL_LEVELS.map(String) as [string, ...string[]])
    .default("0.95")
    .transform(Number),
});

/**
 * One bootstrap computation at a time per process: they are CPU-bound, and a burst of requests for different runs
 * must queue rather than share the event loop's slices ever more thinly. Requests for the same data share a job.
 */
let computeQueue: Promise<unknown> = Promise.resolve();
let queued = 0;
const MAX_QUEUED_INTERVALS = 32;
export function enqueue<T>(job: () => Promise<T>): Promise<T> {
  if (queued >= MAX_QUEUED_INTERVALS) return Promise.reject(tooMany("too many interval computations queued; try again shortly"));
  queued++;
  const next = computeQueue.then(job, job).finally(() => queued--);
  computeQueue = next.catch(() => undefined);
  return next;
}

/**
 * Bootstrap 95 % intervals for every group of a run (lib/metrics/cluster-bootstrap.ts: resampling what the target
 * says was drawn, seeded with the run's seed), each with its bias-corrected estimate. Cached in ScoreCache under a hash of the aggregated data and options, so a repeat request is a read,
 * and new answers or labels are a new key; concurrent requests for one key share one computation, which yields to
 * the event loop as it goes.
 */
export async function runIntervals(
  prisma: PrismaClient,
  runId: string,
  /** `quantile`: only to re-score a bundle written before Student's t (evidence); the pages use today's */
  opts: ScoreOptions & { resamples?: number; level?: number; target?: IntervalTarget; quantile?: IntervalQuantile } = {},
): Promise<IntervalsResult | null> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { seed: true } });
  if (!run) return null;
  await assertFactOrFairRun(prisma, runId);
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? 0.95;
  if (!(INTERVAL_RESAMPLES as readonly number[]).includes(resamples)) throw badRequest(`resamples must be one of ${INTERVAL_RESAMPLES.join(", ")}`);
  if (!(INTERVAL_LEVELS as readonly number[]).includes(level)) throw badRequest(`level must be one of ${INTERVAL_LEVELS.join(", ")}`);
  const target = opts.target ?? DEFAULT_INTERVAL_TARGET;
  if (!(INTERVAL_TARGETS as readonly string[]).includes(target)) throw badRequest(`target must be one of ${INTERVAL_TARGETS.join(", ")}`);
  const records = await designRecords(prisma, runId, opts);
  const canonical = records
    .map((r) =>
      [r.model, r.modality, r.test, r.context, r.statisticId, r.level, r.attribute, r.answer, r.truth ?? "-", r.count ?? 1, r.cluster ?? "", r.unit ?? ""].join(
        "|",
      ),
    )
    .sort();
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const quantile = opts.quantile ?? CURRENT_QUANTILE;
  // v6: the standard interval with the jackknife's floor (lib/metrics/jackknife.ts); v7: d from the corrected (S_fact, S_E),
  // S_KLD about the population jackknifed over scenarios where they differ, few-scenarios; v8: scenario-bias; v9:
  // records in canonical order (the same draws on SQLite and PostgreSQL); v10: release d by the bounded search for
  // chat groups too (the released scripts'); v11: Student's t on the design's degrees of freedom — earlier entries not
  // served
  const key = createHash("sha256")
    .update(JSON.stringify({ v: 11, runId, resamples, level, seed: run.seed, profile, target, quantile, canonical }))
    .digest("hex");
  const hit = await prisma.scoreCache.findUnique({ where: { key } });
  if (hit) return { ...(JSON.parse(hit.json) as IntervalsResult), cached: true };
  let job = inFlight.get(key);
  if (!job) {
    job = enqueue(async () => {
      const groups: GroupIntervals[] = [];
      for (const g of detailedGroups(records, profile)) {
        const mine = records.filter(
          (r) => r.model === g.model && r.modality === g.modality && r.test === g.test && r.context === g.context && r.attribute === g.attribute,
        );
        const intervals = await bootstrapScoresAsync(mine, g.attribute, {
          resamples,
          level,
          seed: run.seed,
          target,
          method: intervalMethodOf(profile, g.modality),
          quantile,
        });
        groups.push({ model: g.model, modality: g.modality, test: g.test, context: g.context, attribute: g.attribute, intervals });
      }
      const result: IntervalsResult = {
        runId,
        resamples,
        seed: run.seed,
        level,
        profile,
        target,
        method: intervalMethodText(quantile),
        computedAt: new Date().toISOString(),
        cached: false,
        groups,
      };
      // Older entries of this run are stale (other data or options): keep the table from growing without bound.
      await keepInCache(prisma, { key, runId, kind: "bootstrap", json: JSON.stringify(result) }, new Date(Date.now() - 24 * 3600 * 1000));
      return result;
    }).finally(() => inFlight.delete(key));
    inFlight.set(key, job);
  }
  return job;
}

import { z } from "zod";
import { db } from "@/lib/db";
import { INTERVAL_LEVELS, INTERVAL_RESAMPLES, runIntervals } from "@/lib/features/results/intervals";
import { LABEL_SOURCES } from "@/lib/features/results/run-results";
import { jsonRead, notFound } from "@/lib/server/http";
import { RACE_MAPPINGS } from "@/lib/faces/labels";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "@/lib/metrics/profiles";
import { DEFAULT_INTERVAL_TARGET, INTERVAL_TARGETS } from "@/lib/metrics/design";

const schema = z.strictObject({
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
 * Bootstrap intervals of every score group of a run (seeded with the run's seed). The first request for a given
 * state of the data computes them (one computation at a time per process, yielding to other requests as it goes);
 * later ones read the cache.
 */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params }) => {
  const result = await runIntervals(db(), params.id, schema.parse(query));
  if (!result) throw notFound("run");
  return result;
});

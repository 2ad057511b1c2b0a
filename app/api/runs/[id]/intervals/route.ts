import { db } from "@/lib/db";
import { intervalsQuery, runIntervals } from "@/lib/features/results/intervals";
import { jsonRead, notFound } from "@/lib/server/http";

/**
 * Bootstrap intervals of every score group of a run (seeded with the run's seed). The first request for a given
 * state of the data computes them (one computation at a time per process, yielding to other requests as it goes) —
 * unless they were computed ahead when the run ended (lib/features/results/ahead.ts); later ones read the cache.
 */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params }) => {
  const result = await runIntervals(db(), params.id, intervalsQuery.parse(query));
  if (!result) throw notFound("run");
  return result;
});

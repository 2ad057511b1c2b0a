import { db } from "@/lib/db";
import { compareSides } from "@/lib/features/results/comparisons";
import { compareQuery } from "@/lib/server/api/schemas";
import { jsonRead } from "@/lib/server/http";

/** B − A for every score both sides have, with intervals and Holm-adjusted p-values (lib/features/results/comparisons.ts). */
export const GET = jsonRead("results.read", async (query) => {
  const { a, b, target, resamples, labels, raceMapping, profile } = compareQuery.parse(query);
  return compareSides(db(), a, b, { target, resamples, labels, raceMapping, profile });
});

import { db } from "@/lib/db";
import { compareSides } from "@/lib/features/results/comparisons";
import { labellerWarnings } from "@/lib/features/review/report";
import { compareQuery } from "@/lib/server/api/schemas";
import { jsonRead } from "@/lib/server/http";

/** B − A for every score both sides have, with intervals and Holm-adjusted p-values (lib/features/results/comparisons.ts). */
export const GET = jsonRead("results.read", async (query) => {
  const { a, b, target, resamples, labels, raceMapping, profile } = compareQuery.parse(query);
  const result = await compareSides(db(), a, b, { target, resamples, labels, raceMapping, profile });
  // Text-to-image scores rest on FairFace's labels: where it misreads one group separably more often, say so.
  const t2i = result.comparisons.some((c) => c.modality === "t2i");
  return { ...result, labellerWarnings: t2i ? await labellerWarnings(db(), [...new Set([result.a.runId, result.b.runId])]) : [] };
});

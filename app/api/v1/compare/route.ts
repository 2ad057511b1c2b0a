import { db } from "@/lib/db";
import { offload } from "@/lib/server/offload";
import { labellerWarnings } from "@/lib/features/review/report";
import { compareQuery } from "@/lib/server/api/schemas";
import { jsonRead } from "@/lib/server/http";

/** B − A for every score both sides have, with intervals and Holm-adjusted p-values (lib/features/results/comparisons.ts). */
export const GET = jsonRead("results.read", async (query, { viewer }) => {
  const { a, b, target, resamples, labels, raceMapping, profile } = compareQuery.parse(query);
  // Thousands of paired resamples: on a read thread, limited per account (lib/server/offload.ts); the result itself is
  // cached by the data it was computed from (ScoreCache), so the short keep here only joins identical requests.
  const opts = { target, resamples, labels, raceMapping, profile };
  const result = await offload("compare", { a, b, opts }, { key: JSON.stringify({ a, b, opts }), ttlMs: 5_000, account: viewer?.id ?? null });
  // Text-to-image scores rest on FairFace's labels: where it misreads one group separably more often, say so.
  const t2i = result.comparisons.some((c) => c.modality === "t2i");
  return { ...result, labellerWarnings: t2i ? await labellerWarnings(db(), [...new Set([result.a.runId, result.b.runId])]) : [] };
});

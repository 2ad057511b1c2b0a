import { runSummaryQuery } from "@/lib/server/api/schemas";
import { db } from "@/lib/db";
import { sharedRunSummary } from "@/lib/features/results/summary";
import { jsonRead, notFound } from "@/lib/server/http";

// The shape /api/v1's document describes (lib/server/api/schemas.ts).
const schema = runSummaryQuery;

/** A run's live summary: progress, throughput, spend, scores, worker health. */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params }) => {
  // Everyone watching a live run polls this every second: one computation serves them all (lib/core/shared.ts).
  const summary = await sharedRunSummary(db(), params.id, schema.parse(query));
  if (!summary) throw notFound("run");
  return summary;
});

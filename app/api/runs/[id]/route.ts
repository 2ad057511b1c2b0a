import { runSummaryQuery } from "@/lib/server/api/schemas";
import { runSummaryOff } from "@/lib/server/api/run-reads";
import { jsonRead, notFound } from "@/lib/server/http";

// The shape /api/v1's document describes (lib/server/api/schemas.ts).
const schema = runSummaryQuery;

/** A run's live summary: progress, throughput, spend, scores, worker health. */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params, viewer }) => {
  // Everyone watching a live run polls this every second: one computation, on a read thread, serves them all.
  const summary = await runSummaryOff(params.id, schema.parse(query), viewer?.id ?? null);
  if (!summary) throw notFound("run");
  return summary;
});

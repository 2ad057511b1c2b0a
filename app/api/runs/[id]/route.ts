import { z } from "zod";
import { db } from "@/lib/db";
import { LABEL_SOURCES } from "@/lib/features/results/run-results";
import { sharedRunSummary } from "@/lib/features/results/summary";
import { jsonRead, notFound } from "@/lib/server/http";
import { RACE_MAPPINGS } from "@/lib/faces/labels";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "@/lib/metrics/profiles";

const schema = z.strictObject({
  raceMapping: z.enum(RACE_MAPPINGS).default("paper"),
  labels: z.enum(LABEL_SOURCES).default("model"),
  profile: z.enum(SCORING_PROFILES).default(DEFAULT_PROFILE),
});

/** A run's live summary: progress, throughput, spend, scores, worker health. */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params }) => {
  // Everyone watching a live run polls this every second: one computation serves them all (lib/core/shared.ts).
  const summary = await sharedRunSummary(db(), params.id, schema.parse(query));
  if (!summary) throw notFound("run");
  return summary;
});

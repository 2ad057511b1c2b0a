import { z } from "zod";
import { db } from "@/lib/db";
import { runCorrectedScores } from "@/lib/features/results/corrected";
import { jsonRead } from "@/lib/server/http";
import { RACE_MAPPINGS } from "@/lib/faces/labels";
import { DEFAULT_PROFILE, SCORING_PROFILES } from "@/lib/metrics/profiles";
import { intervalTargetParam } from "@/lib/results/compare-params";

const schema = z.strictObject({
  raceMapping: z.enum(RACE_MAPPINGS).default("paper"),
  profile: z.enum(SCORING_PROFILES).default(DEFAULT_PROFILE),
  target: intervalTargetParam,
});

/**
 * A text-to-image run's misclassification-corrected scores: each cell's label shares corrected with the classifier's
 * confusion estimated from the run's reviewed faces, with intervals that resample those faces too (or the reason
 * they are refused). Computed once per state of the data, then cached.
 */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params }) => runCorrectedScores(db(), params.id, schema.parse(query)));

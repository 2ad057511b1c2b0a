import { db } from "@/lib/db";
import { jsonRead } from "@/lib/server/http";
import { explanationResultsOff } from "@/lib/server/api/explanation-reads";
import { explanationResultsQuery } from "@/lib/server/api/explanations";
import { assertNotBlind, publicResults } from "@/lib/features/explanations/access";

/** How often the run's explanations show each cognitive error (people's sample, judge corrected), with agreement. */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params, viewer }) => {
  await assertNotBlind(db(), params.id, viewer?.id);
  return publicResults(await explanationResultsOff(params.id, explanationResultsQuery.parse(query), viewer?.id ?? null));
});

import { db } from "@/lib/db";
import { jsonRead } from "@/lib/server/http";
import { explanationResults } from "@/lib/features/explanations/results";
import { explanationResultsQuery } from "@/lib/server/api/explanations";

/** How often the run's explanations show each cognitive error (people's sample, judge corrected), with agreement. */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params }) =>
  explanationResults(db(), params.id, explanationResultsQuery.parse(query)),
);

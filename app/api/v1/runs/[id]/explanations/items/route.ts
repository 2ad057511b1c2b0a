import { db } from "@/lib/db";
import { jsonRead } from "@/lib/server/http";
import { explanationsBehind } from "@/lib/features/explanations/results";
import { behindQuery } from "@/lib/server/api/explanations";

/** The explanations behind a number: raw model output, so the raw-data permission. */
export const GET = jsonRead<{ id: string }>("data.export", async (query, { params }) => explanationsBehind(db(), params.id, behindQuery.parse(query)));

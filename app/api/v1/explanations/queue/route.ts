import { db } from "@/lib/db";
import { jsonRead } from "@/lib/server/http";
import { explanationQueue } from "@/lib/features/explanations/readings";

/** The caller's own queue: who is asking is the signed-in account, never a parameter. */
export const GET = jsonRead("explanations.review", async (query, { viewer }) =>
  explanationQueue(db(), viewer!.id, query as Parameters<typeof explanationQueue>[2]),
);

import { db } from "@/lib/db";
import { jsonRead } from "@/lib/server/http";
import { explanationsBehind } from "@/lib/features/explanations/behind";
import { behindQuery } from "@/lib/server/api/explanations";
import { assertNotBlind, reviewerName } from "@/lib/features/explanations/access";

/** The explanations behind a number: raw model output, so the raw-data permission. */
export const GET = jsonRead<{ id: string }>("data.export", async (query, { params, viewer }) => {
  await assertNotBlind(db(), params.id, viewer?.id);
  const r = await explanationsBehind(db(), params.id, behindQuery.parse(query));
  return { ...r, items: r.items.map((i) => ({ ...i, readings: i.readings.map((x) => ({ ...x, annotator: reviewerName(x.annotator) })) })) };
});

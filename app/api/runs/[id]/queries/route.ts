import { db } from "@/lib/db";
import { itemFilterSchema, runItems } from "@/lib/features/runs/items";
import { jsonRead, notFound } from "@/lib/server/http";
import { actorOf, auditOnce } from "@/lib/auth/audit";

/** A page of a run's items (any suite): prompts, raw output, attempts, errors, images with their faces. */
export const GET = jsonRead<{ id: string }>("data.export", async (query, { params, viewer }) => {
  const filter = itemFilterSchema.parse(query);
  const page = await runItems(db(), params.id, filter);
  if (!page) throw notFound("run");
  // Raw model output read: recorded once per account, run and ten minutes of paging.
  await auditOnce(db(), { ...actorOf(viewer), action: "data.read", targetType: "run", targetId: params.id, details: { what: "queries" } });
  return page;
});

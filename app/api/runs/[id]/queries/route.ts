import { z } from "zod";
import { db } from "@/lib/db";
import { CONTEXTS, TESTS } from "@/lib/benchmark";
import { QUERY_STATUSES, runQueries } from "@/lib/engine";
import { jsonRead, notFound } from "@/lib/engine/http";
import { auditOnce } from "@/lib/auth/audit";

const schema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
  status: z.enum(QUERY_STATUSES).optional(),
  test: z.enum(TESTS).optional(),
  context: z.enum(CONTEXTS).optional(),
  statisticId: z.string().max(80).optional(),
  model: z.string().max(120).optional(),
  /** failed items with this recorded reason ("no reason recorded": those without one) */
  reason: z.string().max(1000).optional(),
});

/** A page of a run's queries with their prompts, raw output and attempts. */
export const GET = jsonRead<{ id: string }>("data.export", async (query, { params, viewer }) => {
  const filter = schema.parse(query);
  if (!(await db().run.findUnique({ where: { id: params.id }, select: { id: true } }))) throw notFound("run");
  // Raw model output read: recorded once per account, run and ten minutes of paging.
  await auditOnce(db(), { userId: viewer?.id ?? null, action: "data.read", targetType: "run", targetId: params.id, details: { what: "queries" } });
  return runQueries(db(), params.id, filter);
});

import { z } from "zod";
import { db } from "@/lib/db";
import { goldOf, setGold } from "@/lib/features/review/annotators";
import { badRequest } from "@/lib/core/errors";
import { jsonRead, jsonWrite } from "@/lib/server/http";

/** Whether a face is gold, and its gold labels: `?faceId=`. Admins only (an annotator's queue never says). */
export const GET = jsonRead("annotators.manage", async (query) => {
  const faceId = z.coerce.number().int().positive().safeParse(query.faceId);
  if (!faceId.success) throw badRequest("faceId: a face id");
  const gold = await goldOf(db(), [faceId.data]);
  return { faceId: faceId.data, gold: gold.get(faceId.data) ?? null };
});

/**
 * Marks a reviewed face as gold — `{ faceId, gold: true, values? }`, its labels given or its decided majority — or
 * unmarks it (`{ faceId, gold: false }`). Admins only; audited in the same transaction.
 */
export const PUT = jsonWrite("annotators.manage", async (body, { viewer }) => setGold(db(), body as Parameters<typeof setGold>[1], viewer!), {
  maxBytes: 8 * 1024,
});

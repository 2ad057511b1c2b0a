import { db } from "@/lib/db";
import { setExclusion } from "@/lib/features/review/annotators";
import { jsonWrite } from "@/lib/server/http";

/**
 * Leaves an annotator's votes out of every consensus — `{ annotator, excluded: true, reason }` — or brings them back
 * (`{ annotator, excluded: false }`). Admins only; audited with the reason in the same transaction.
 */
export const PUT = jsonWrite("annotators.manage", async (body, { viewer }) => setExclusion(db(), body as Parameters<typeof setExclusion>[1], viewer!), {
  maxBytes: 8 * 1024,
});

// Recording a verdict on an item of a suite's content (the Benchmark page's review): kept apart from the reads in
// ./content-review.ts, which suites' scoring uses, because it needs the suite registry.
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { audit } from "../auth/audit";
import { badRequest, notFound } from "../core/errors";
import { suiteOf } from "./index";
import { CONTENT_REVIEW_STATES } from "./review-states";

export const reviewItemSchema = z
  .object({
    suiteId: z.string().min(1).max(64),
    itemId: z.string().min(1).max(120),
    state: z.enum(CONTENT_REVIEW_STATES),
    note: z
      .string()
      .trim()
      .max(2000)
      .optional()
      .transform((v) => v || null),
  })
  .refine((r) => r.state !== "disputed" || !!r.note, { message: "say what is wrong: a dispute needs a note", path: ["note"] });

/** Records a verdict on one item of a suite's current content, with the reviewer and an audit row. */
export async function reviewItem(
  prisma: PrismaClient,
  input: z.input<typeof reviewItemSchema>,
  by: { id: string | null; name: string; token?: { id: string; name: string } | null },
) {
  const r = reviewItemSchema.parse(input);
  const suite = suiteOf(r.suiteId);
  if (!suite.reviewable) throw badRequest(`${suite.name} content is not reviewed item by item`);
  if (!suite.items(suite.content()).some((i) => i.id === r.itemId)) throw notFound(`${suite.name} item "${r.itemId}"`);
  return prisma.$transaction(async (tx) => {
    const row = await tx.contentReview.create({
      data: { suiteId: r.suiteId, itemId: r.itemId, state: r.state, note: r.note, reviewerId: by.id, reviewer: by.name },
    });
    await audit(tx, {
      userId: by.id,
      token: by.token ?? null,
      action: "content.review",
      targetType: "suite-item",
      targetId: `${r.suiteId}/${r.itemId}`,
      details: { state: r.state, note: r.note },
    });
    return row;
  });
}

// Reviewers' verdicts on suite content: content written by us (historical entries, say) needs human checking,
// as the papers' did. Rows are appended, never changed; the newest per item is its state, so the history of who
// verified or disputed what stays readable.
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { audit } from "../auth/audit";
import { badRequest, notFound } from "../engine/errors";
import { suiteOf } from "./index";
import { CONTENT_REVIEW_STATES, type ContentReviewState } from "./review-states";

export interface ItemReview {
  state: ContentReviewState;
  note: string | null;
  reviewer: string | null;
  at: string | null;
}

const UNREVIEWED: ItemReview = { state: "unreviewed", note: null, reviewer: null, at: null };

/** Every item's current review state for a suite (items without a verdict are unreviewed). */
export async function itemReviews(prisma: PrismaClient, suiteId: string): Promise<Map<string, ItemReview>> {
  const rows = await prisma.contentReview.findMany({
    where: { suiteId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { itemId: true, state: true, note: true, reviewer: true, createdAt: true },
  });
  const out = new Map<string, ItemReview>();
  for (const r of rows) out.set(r.itemId, { state: r.state as ContentReviewState, note: r.note, reviewer: r.reviewer, at: r.createdAt.toISOString() });
  return out;
}

export function reviewOf(map: Map<string, ItemReview>, itemId: string): ItemReview {
  return map.get(itemId) ?? UNREVIEWED;
}

/** The ids of the items a reviewer verified (what "verified only" scores use). */
export async function verifiedItems(prisma: PrismaClient, suiteId: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const [id, r] of await itemReviews(prisma, suiteId)) if (r.state === "verified") out.add(id);
  return out;
}

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
export async function reviewItem(prisma: PrismaClient, input: z.input<typeof reviewItemSchema>, by: { id: string | null; name: string }) {
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
      action: "content.review",
      targetType: "suite-item",
      targetId: `${r.suiteId}/${r.itemId}`,
      details: { state: r.state, note: r.note },
    });
    return row;
  });
}

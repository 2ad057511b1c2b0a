// Reviewers' verdicts on suite content: content written by us (historical entries, say) needs human checking,
// as the papers' did. Rows are appended, never changed; the newest per item is its state, so the history of who
// verified or disputed what stays readable.
import type { PrismaClient } from "../../generated/prisma/client";
import type { ContentReviewState } from "./review-states";

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

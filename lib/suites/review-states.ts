// Review states of suite content items (client-safe: the Benchmark page, the server and the metrics share them).

export const CONTENT_REVIEW_STATES = ["unreviewed", "verified", "disputed"] as const;
export type ContentReviewState = (typeof CONTENT_REVIEW_STATES)[number];

export const CONTENT_REVIEW_LABELS: Record<ContentReviewState, string> = {
  unreviewed: "Unreviewed",
  verified: "Verified",
  disputed: "Disputed",
};

/** Which items a score is computed over: every item, or only those a reviewer verified. */
export const ITEM_SETS = ["all", "verified"] as const;

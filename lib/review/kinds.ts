// Review is one mechanism over kinds of item (issue #67): an assignment deals a seeded sample of items to reviewers
// with overlap (./assignment.ts dealItems), their readings are appended (never overwritten) and the newest per item and
// reviewer counts, gold items are served blind at the assignment's rate (./annotator-quality.ts isGoldSlot) and score
// each reviewer (annotatorQuality), excluded reviewers are out of every consensus (./exclusions.ts), and agreement is
// measured per attribute. What differs per kind is only what an item is and what a reading holds. Client-safe.

export type ReviewKind = "faces" | "explanations";

export const REVIEW_KIND_INFO: Record<ReviewKind, { item: string; items: string; reading: string; sampling: string }> = {
  faces: {
    item: "image",
    items: "images",
    reading: "a class per attribute for each face (or not a face)",
    sampling: "a seeded sample of each model's labelled images (the paper: 25 per model)",
  },
  explanations: {
    item: "explanation",
    items: "explanations",
    reading: "the cognitive errors the explanation shows, each with the words that show it (or none)",
    sampling: "a random sample within strata (model × statistic × context), sized for a stated precision per model",
  },
};

/** A reading of an explanation as attribute → value, so the kind-independent measures (gold accuracy, agreement) read it. */
export const PRESENT = "yes";
export const ABSENT = "no";

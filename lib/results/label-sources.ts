// Which face labels a text-to-image score uses (client-safe: pages, routes and the engine share it).
/** Which face labels a T2I score uses: the pipeline's own, or the human-corrected ones. */
export const LABEL_SOURCES = ["model", "reviewed"] as const;
export type LabelSource = (typeof LABEL_SOURCES)[number];

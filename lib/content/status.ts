// A content-set version's life: draft (imported, not yet launchable) → approved (by an admin; runners may launch on
// it) → retired (no new runs; runs on it keep their scores). Client-safe: the pages and the CLI read the same words.
const CONTENT_SET_STATUSES = ["draft", "approved", "retired"] as const;
export type ContentSetStatus = (typeof CONTENT_SET_STATUSES)[number];

/** The transitions an admin may make. */
export const CONTENT_SET_TRANSITIONS: Record<"approve" | "retire", readonly ContentSetStatus[]> = {
  approve: ["draft"],
  retire: ["draft", "approved"],
};

/** A stored status read back: the database column is TEXT, so anything else is a corrupt row, said so. */
export function contentSetStatus(value: string): ContentSetStatus {
  const found = CONTENT_SET_STATUSES.find((s) => s === value);
  if (!found) throw new Error(`content set version has an unknown status "${value}"`);
  return found;
}

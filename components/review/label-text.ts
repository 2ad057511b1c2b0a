// A face's label as one line of text, shared by the queue and the image view.
import type { LabelSets } from "@/lib/review/label-set";

/** "female, Asian" — and the age group where the face's suite scores age. */
export function labelText(l: { gender: string | null; race: string | null; age?: string | null; notAFace?: boolean } | null, withAge = false) {
  if (!l) return "–";
  if (l.notAFace) return "not a face";
  return [l.gender ?? "?", l.race ?? "?", ...(withAge ? [l.age ?? "?"] : [])].join(", ");
}

/** Whether a face's suite labels age (its cards then show the age group too). */
export const labelsAge = (sets: LabelSets, suite: string) => (sets[suite] ?? []).some((a) => a.id === "age");

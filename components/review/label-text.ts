// A face's label as one line of text, shared by the queue and the image view.
import type { LabelAttribute, LabelSets } from "@/lib/review/label-set";

/** "female, Asian" (and any further attribute the face's suite labels, in its order; "?" where unset). */
export function labelText(l: { values: Record<string, string>; notAFace?: boolean } | null, attrs: readonly LabelAttribute[]) {
  if (!l) return "–";
  if (l.notAFace) return "not a face";
  return attrs.map((a) => l.values[a.id] ?? "?").join(", ");
}

/** The attributes a face's suite labels (its cards show them, in this order). */
export const attributesOf = (sets: LabelSets, suite: string): readonly LabelAttribute[] => sets[suite] ?? [];

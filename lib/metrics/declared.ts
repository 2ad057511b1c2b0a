// The attribute a score is computed for: one of the paper's (gender, race — their classes from lib/benchmark) or one a
// content set declares (issue #57: any id, k ≥ 2 classes). Every score takes either, and both go through the same
// code: the paper's attributes are resolved to their declaration here, so their numbers stay bit for bit.
import { classesOf, getStatistic, groundTruth, type Attribute, type Level } from "../benchmark";

export interface DeclaredAttribute {
  id: string;
  /** the classes in their declared order (k = classes.length) */
  classes: readonly string[];
}

export type ScoredAttribute = Attribute | DeclaredAttribute;

export const declaredOf = (a: ScoredAttribute): DeclaredAttribute => (typeof a === "string" ? { id: a, classes: classesOf(a) } : a);

/**
 * A record's true class: as carried (a run's pinned content) — for a declared attribute always carried; for the
 * paper's, records read from files that do not carry it fall back on today's benchmark data.
 */
export function recordTruth(r: { statisticId: string; level: Level; truth?: string | null }, attribute: ScoredAttribute): string | null {
  if (r.truth !== undefined) return r.truth;
  if (typeof attribute !== "string") throw new RangeError(`a ${attribute.id} record must carry its true class (null where there is none)`);
  return groundTruth(getStatistic(r.statisticId), attribute, r.level);
}

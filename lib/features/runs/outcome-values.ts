// Where a chat answer's values are stored. A suite's reader returns the option chosen and the attribute values it read
// (keyed by the suite's own attribute ids); the outcome table keeps them in indexed value columns that results
// aggregate in SQL. Only the ids below have a column: a reading with any other id is refused at the boundary (the
// query ends "failed" with a reason that names it) rather than dropped — a new suite that reads other attributes
// adds its column here (and a migration) first.
import type { AnswerReading } from "../../suites/types";

const VALUE_COLUMNS = ["gender", "race"] as const;
type ValueColumn = (typeof VALUE_COLUMNS)[number];
export type OutcomeValues = Record<ValueColumn, string | null>;

export const NO_VALUES: OutcomeValues = { gender: null, race: null };

/** The outcome columns of an accepted reading, or the ids no column keeps. */
export function outcomeValues(reading: Extract<AnswerReading, { ok: true }>): { ok: true; values: OutcomeValues } | { ok: false; unknown: string[] } {
  const unknown = Object.keys(reading.values).filter((k) => !(VALUE_COLUMNS as readonly string[]).includes(k));
  if (unknown.length) return { ok: false, unknown };
  return { ok: true, values: { gender: reading.values.gender ?? null, race: reading.values.race ?? null } };
}

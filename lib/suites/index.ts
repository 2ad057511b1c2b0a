// Looking suites up. The engine and pages ask here; a run's suite id comes from its row.
import { DomainError } from "../core/errors";
import { byCodeUnits } from "../core/order";
import * as registered from "./registry";
import type { AnySuite } from "./types";

export * from "./types";
export type * from "./views";

/** The suite every run planned before suites existed belongs to. */
export const DEFAULT_SUITE_ID = "fact-or-fair";

// The default suite first, then by name (a module namespace lists its exports alphabetically), by code unit
// (lib/core/order.ts; besides, a first localeCompare builds ICU's collator: ~6 ms of `fof run`'s start, bench:cli).
const byName = (a: AnySuite, b: AnySuite) => byCodeUnits(a.name, b.name);
const SUITES: readonly AnySuite[] = (Object.values(registered) as AnySuite[]).sort(
  (a, b) => Number(b.id === DEFAULT_SUITE_ID) - Number(a.id === DEFAULT_SUITE_ID) || byName(a, b),
);

export function listSuites(): readonly AnySuite[] {
  return SUITES;
}

export function findSuite(id: string): AnySuite | null {
  return SUITES.find((s) => s.id === id) ?? null;
}

/** A suite by id, or a 404-mapped error naming the known ones. */
export function suiteOf(id: string): AnySuite {
  const s = findSuite(id);
  if (!s) throw new DomainError("not_found", `unknown suite "${id}" (known: ${SUITES.map((x) => x.id).join(", ")})`);
  return s;
}

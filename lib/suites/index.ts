// Looking suites up. The engine and pages ask here; a run's suite id comes from its row.
import { DomainError } from "../engine/errors";
import { SUITES } from "./registry";
import type { AnySuite } from "./types";

export * from "./types";
export type * from "./views";

/** The suite every run planned before suites existed belongs to. */
export const DEFAULT_SUITE_ID = "fact-or-fair";

export function listSuites(): readonly AnySuite[] {
  return SUITES;
}

export function findSuite(id: string): AnySuite | null {
  return SUITES.find((s) => s.id === id) ?? null;
}

/** A suite by id, or a 404-mapped error naming the known ones. */
export function suiteOf(id: string): AnySuite {
  const s = findSuite(id);
  if (!s) throw new DomainError(404, `unknown suite "${id}" (known: ${SUITES.map((x) => x.id).join(", ")})`);
  return s;
}

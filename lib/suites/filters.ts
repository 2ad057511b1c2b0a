// A suite's filters (Suite.reviewFilters) on the server: what a client is sent (choices without their item sets) and
// how a "group" choice resolves to the items it names. The Review page and every run's item list use both.
import { findSuite } from ".";
import type { ReviewFilter } from "./types";

/** Filters of a suite's content for a client: a group's item sets stay on the server (thousands of ids). */
export function clientFilters(filters: readonly ReviewFilter[]): ReviewFilter[] {
  return filters.map((f) => ({ ...f, options: f.options.map(({ value, label }) => ({ value, label })) }));
}

/** The suite's filters over today's content (item ids are stable across content versions of a suite). */
export function suiteFilters(suiteId: string | null | undefined): ReviewFilter[] {
  const suite = suiteId ? findSuite(suiteId) : null;
  return (suite?.reviewFilters?.(suite.content()) ?? []) as ReviewFilter[];
}

/**
 * The items (statisticId values) a group choice selects; an unknown suite or choice selects nothing, so a stale or
 * forged link shows an empty list rather than everything.
 */
export function groupItems(suiteId: string | null | undefined, value: string): string[] {
  const group = suiteFilters(suiteId).find((f) => f.key === "group");
  return group?.options.find((o) => o.value === value)?.items ?? [];
}

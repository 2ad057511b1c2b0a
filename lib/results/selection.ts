// Which runs a results page shows: the `runs` search parameter (comma-separated ids), else the latest runs that
// have something to score. Shared by the results pages and the results export.
import { z } from "zod";

export const SCORABLE_STATUSES = ["running", "paused", "completed", "cancelled", "budget_exhausted", "failed"] as const;
export const DEFAULT_RUN_COUNT = 10;
const MAX_SELECTED_RUNS = 30;

export const runIdsParam = z
  .string()
  .max(2000)
  .optional()
  .transform((s) => [
    ...new Set(
      (s ?? "")
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "run ids are letters, digits, - and _")).max(MAX_SELECTED_RUNS, `at most ${MAX_SELECTED_RUNS} runs`));

/** A search-parameter value as one string (the last of repeated ones, comma-joined for `runs` checkboxes). */
export function paramValue(v: string | string[] | undefined, join = false): string | undefined {
  if (Array.isArray(v)) return join ? v.join(",") : v[v.length - 1];
  return v;
}

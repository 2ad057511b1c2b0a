// Scores as CSV: one row per run × model × test/context × attribute, on the 0–1 scale, with the bias-corrected
// estimates, 95 % bounds and flags where intervals have been computed (empty otherwise), their target and method.
import { stringify } from "csv-stringify/sync";
import { BOOTSTRAP_METRICS, type BootstrapIntervals, type BootstrapMetric } from "../metrics/bootstrap";
import type { MeasuredGroup } from "./leaderboard";
import { columnOf, pointIntervalKey } from "./tradeoff";
import { distanceMethodOf, distanceOf } from "../metrics/scores";
import { DEFAULT_PROFILE, type ScoringProfile } from "../metrics/profiles";
import { DEFAULT_INTERVAL_TARGET, INTERVAL_METHOD, type IntervalTarget } from "../metrics/design";

const CSV_NAMES: Record<BootstrapMetric, string> = { sFact: "s_fact", sE: "s_e", sKLD: "s_kld", sFair: "s_fair", distance: "d" };

export const SCORE_CSV_COLUMNS: readonly string[] = [
  "run_id",
  "run_name",
  "model",
  "modality",
  "test",
  "context",
  "column",
  "attribute",
  "n",
  "refused",
  ...BOOTSTRAP_METRICS.map((m) => CSV_NAMES[m]),
  ...BOOTSTRAP_METRICS.flatMap((m) => [`${CSV_NAMES[m]}_estimate`, `${CSV_NAMES[m]}_lo`, `${CSV_NAMES[m]}_hi`, `${CSV_NAMES[m]}_flags`]),
  // how d was found: "global" (the paper's definition) or "bounded" (the released scripts' search; the release profile,
  // which also computes S_fact, S_E, S_KLD and S_fair as each released script does: lib/metrics/fof-release.ts)
  "d_method",
  // what the intervals are about and how they were computed (lib/metrics/design.ts)
  "interval_target",
  "interval_method",
];

/**
 * Text cells that a spreadsheet would run as a formula (=, +, -, −, @, tab or CR first: run and model names are
 * user input) get a leading apostrophe, the OWASP-recommended neutraliser. Numbers are written as numbers.
 */
export function escapeFormula(value: string): string {
  return /^[=+\-\u2212@\t\r]/.test(value) ? `'${value}` : value;
}

/** `intervals` is keyed by pointIntervalKey (run id, model, modality, test, context, attribute). */
export function scoresCsv(
  groups: readonly MeasuredGroup[],
  intervals: ReadonlyMap<string, BootstrapIntervals> = new Map(),
  profile: ScoringProfile = DEFAULT_PROFILE,
  target: IntervalTarget = DEFAULT_INTERVAL_TARGET,
): string {
  const num = (v: number | null | undefined) => (v === null || v === undefined ? "" : v);
  const rows = groups.map((g) => {
    const iv = intervals.get(pointIntervalKey(g));
    return [
      g.run?.id ?? "",
      g.run?.name ?? "",
      g.model,
      g.modality,
      g.test,
      g.context ?? "",
      columnOf(g.modality, g.test, g.context),
      g.attribute,
      g.n,
      g.refused,
      ...BOOTSTRAP_METRICS.map((m) => num(g[m])),
      ...BOOTSTRAP_METRICS.flatMap((m) => [num(iv?.[m]?.estimate), num(iv?.[m]?.lo), num(iv?.[m]?.hi), iv?.[m]?.flags.join(" ") ?? ""]),
      distanceOf(distanceMethodOf(profile, g.modality, g.test)),
      iv ? target : "",
      iv ? INTERVAL_METHOD : "",
    ];
  });
  return stringify(rows, { header: true, columns: [...SCORE_CSV_COLUMNS], record_delimiter: "\n", cast: { string: escapeFormula } });
}

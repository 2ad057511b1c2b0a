// The shape of a comparison, any suite's (lib/features/results/comparisons.ts: FACT-OR-FAIR's scores;
// suite-comparisons.ts: averages over images): what GET /api/v1/compare, `fof compare` and the Compare page read.
import type { Attribute, Context, Modality, Test } from "../../benchmark";
import type { IntervalTarget } from "../../metrics/design";
import type { Difference } from "../../metrics/paired";
import type { ScoringProfile } from "../../metrics/profiles";
import type { ScoreOptions } from "./explore";

export interface CompareSide {
  runId: string;
  /** the model's slug; may be left out when the run has one model */
  model?: string;
}

/** One comparison of any suite: what the API, the CLI and the Compare page read. */
export interface ComparisonCore extends Pick<Difference, "a" | "b" | "aPlugIn" | "bPlugIn" | "delta" | "lo" | "hi" | "p"> {
  metric: string;
  /** the metric's name where it is not a FACT-OR-FAIR score */
  metricName?: string;
  group: string;
  /** FACT-OR-FAIR's coordinates of the group (other suites name it in `group` only) */
  modality?: Modality;
  test?: Test;
  context?: Context | null;
  attribute?: Attribute;
  pAdjusted: number;
  /** the two sides ran the same planned items (see lib/metrics/paired.ts) */
  paired: boolean;
  /** adjusted p < 0.05 and no cell too small to promise coverage (lib/metrics/paired.ts isSeparable) */
  separable: boolean;
  /** which direction is better: higher, lower, closer to 0, or closer to ½ (a balance point, e.g. a manifestation factor) */
  better: "higher" | "lower" | "zero" | "half";
  /** how p was found: the bootstrap, or the exact McNemar test (objective accuracy, same questions) */
  testUsed: "bootstrap" | "mcnemar";
  flags: string[];
  sentence: string;
}

export interface ComparisonResult {
  /** the suite both runs belong to */
  suite: string;
  a: { runId: string; model: string };
  b: { runId: string; model: string };
  target: IntervalTarget;
  resamples: number;
  level: number;
  paired: boolean;
  /** why they are (not) paired, in words */
  pairing: string;
  /** what the population target resamples, in words ("scenarios", "entries") */
  items: string;
  cached: boolean;
  comparisons: ComparisonCore[];
}

export interface CompareOptions extends Pick<ScoreOptions, "labels" | "raceMapping"> {
  target?: IntervalTarget;
  resamples?: number;
  level?: number;
  profile?: ScoringProfile;
}

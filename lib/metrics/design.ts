// What an interval is about, client-safe (no imports): the pages, the API, the CLI and the exports read these.
//
// An interval needs a target before a method (DESIGN.md §12). "exact": this benchmark as it was run — its fixed
// scenarios, prompts and entries — where only the model's own sampling varies; the truth is the score the same
// model would reach answering these same items without end. "population": the items as a sample of the possible
// ones (what a paper's conclusion claims); the truth is the score over the population of scenarios or prompts the
// benchmark's items were drawn from. docs/scoring.md says per suite which levels each target resamples, and why.

/** The scores that get intervals and comparisons, in the tables' order. */
export const BOOTSTRAP_METRICS = ["sFact", "sE", "sKLD", "sFair", "distance"] as const;
export type BootstrapMetric = (typeof BOOTSTRAP_METRICS)[number];

export const INTERVAL_TARGETS = ["population", "exact"] as const;
export type IntervalTarget = (typeof INTERVAL_TARGETS)[number];
export const DEFAULT_INTERVAL_TARGET: IntervalTarget = "population";

export const INTERVAL_TARGET_LABELS: Record<IntervalTarget, string> = {
  population: "population (scenarios and prompts as a sample)",
  exact: "this exact benchmark",
};
/** the short form written beside every interval */
export const INTERVAL_TARGET_SHORT: Record<IntervalTarget, string> = { population: "pop.", exact: "exact" };

/**
 * Why an interval's coverage is not promised, or how its design had to be simplified:
 * - "small-cells": some (statistic, level) cell has too few units with an answer (answers; images with a face) for
 *   the entropy and divergence estimates' bias to be corrected reliably (fewer than SMALL_CELL_PER_CLASS × k): shown but
 *   coverage is not promised;
 * - "sparse-classes" (S_KLD, S_fair): a class the highest-level cell chose is (nearly) absent from the lowest-level
 *   cell (fewer than SPARSE_CLASS_COUNT answers): the paper's ε = 1e−10 makes S_KLD depend on how rare that class
 *   truly is (a share of 0 and one of 0.001 differ by 23 × p in KL), which finite answers cannot tell apart;
 * - "few-scenarios" (population target; every score but S_fact): some cell has only two scenarios, so how strongly
 *   scenarios differ cannot be corrected for (the scenario jackknife needs three, lib/metrics/kld-jackknife.ts): with
 *   strong scenario effects a curved score's population interval misses — shown, coverage not promised;
 * - "scenario-bias" (population target; S_KLD): the scenarios of its cells differ so strongly that what the scenario
 *   jackknife leaves of S_KLD's bias may exceed a quarter of its standard error (lib/metrics/kld-jackknife.ts) —
 *   shown, coverage about the population not promised: more scenarios per cell would pin it down;
 * - "collapsed": some scenario had a single answer, so its cell's answers were resampled together (conservative);
 * - "fixed-items": the suite fixes one item (prompt, objective question) per cell, so there is nothing to draw
 *   under the population target: the interval is this exact benchmark's.
 */
export type IntervalFlag = "small-cells" | "sparse-classes" | "few-scenarios" | "scenario-bias" | "collapsed" | "fixed-items";

export const INTERVAL_FLAG_TEXT: Record<IntervalFlag, string> = {
  "small-cells": "some cells are too small for the bias correction: coverage not promised",
  "sparse-classes": "a class chosen at the highest level is (nearly) absent at the lowest: S_KLD cannot be pinned down, coverage not promised",
  "few-scenarios": "some cell has only two scenarios: how much scenarios differ cannot be corrected for, coverage about the population not promised",
  "scenario-bias":
    "scenarios differ too strongly for their number per cell: S_KLD's bias cannot be fully corrected, coverage about the population not promised",
  collapsed: "scenarios with one answer were resampled with their cell (conservative)",
  "fixed-items": "one fixed item per cell: nothing to draw beyond this benchmark",
};

/** valid answers per class below which a cell is flagged (entropy bias correction unreliable): tested by simulation */
export const SMALL_CELL_PER_CLASS = 5;

/** answers of a class in a lowest-level cell below which S_KLD is flagged when the highest-level cell chose it */
export const SPARSE_CLASS_COUNT = 5;

/**
 * The quantile a standard interval multiplies its standard error by (lib/metrics/jackknife.ts intervalQuantile): "t",
 * Student's t on the design's degrees of freedom (since 2026-12-07), or "normal", the quantile before. A run's
 * adaptive rule and an evidence bundle name the one they were computed with (absent: "normal"), so a stopped run
 * keeps the rule it stopped by and an older bundle is re-scored as it was written.
 */
export type IntervalQuantile = "t" | "normal";
export const CURRENT_QUANTILE: IntervalQuantile = "t";
/** what a stored rule or bundle says (anything but "t", including nothing: written before, "normal") */
export const quantileOf = (stated: unknown): IntervalQuantile => (stated === "t" ? "t" : "normal");

/** The method written beside intervals in exports and documents. */
export const INTERVAL_METHOD =
  "bias-corrected estimate ± t × standard error, the larger of a Rao–Wu (n−1) stratified cluster bootstrap's and the stratified jackknife's, t on the design's degrees of freedom";
/** the same, as written before 2026-12-07 (the normal quantile): older bundles state it */
const INTERVAL_METHOD_NORMAL =
  "bias-corrected estimate ± z × standard error, the larger of a Rao–Wu (n−1) stratified cluster bootstrap's and the stratified jackknife's";
export const intervalMethodText = (q: IntervalQuantile) => (q === "t" ? INTERVAL_METHOD : INTERVAL_METHOD_NORMAL);

export interface Interval {
  /** the bias-corrected estimate (plug-in minus the bootstrap's estimate of its bias); always inside [lo, hi] */
  estimate: number;
  lo: number;
  hi: number;
  /** bootstrap standard error */
  se: number;
  /** resamples in which the score was defined */
  resamples: number;
  flags: IntervalFlag[];
}

// The stratified delete-one jackknife over a resampling plan's strata, and the interval it sets with the bootstrap
// (docs/scoring.md, Intervals: "Width and shape").
//
// Why: the bootstrap's spread of an entropy or divergence is its spread around the *observed* shares. With few
// answers per cell a rare class is often seen once or not at all, and the curvature of p·ln p there makes that
// spread too small on average: at the quick preset the bootstrap's standard error of race S_E was 6–9 % below the
// estimate's real spread, and its 95 % interval covered 91 %. The jackknife's variance is conservative in
// expectation for any function of independent draws (Efron & Stein 1981), so the interval's standard error is the
// larger of the two. For a score linear in the counts (S_fact) they agree (the n − 1 rescaling makes the bootstrap's
// variance the unbiased one). The interval is the standard one about the bias-corrected estimate: every headline
// score averages many cells, so its sampling distribution is close to normal, while the bootstrap's own quantiles
// are lumpy where a cell has three scenarios (two of three are drawn) and ragged in the tails an adaptive look reads
// (its 99.75 % interval would rest on the outermost of 400 replicates).
import type { ScoreMethod } from "./scores";
import { scoresFromCells } from "./scores";
import type { BootstrapMetric, Interval } from "./design";
import { BOOTSTRAP_METRICS } from "./design";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import tQuantile from "@stdlib/stats-base-dists-t-quantile";
import { runSteps, SLICE_MS } from "./steps";
import type { Label, Level } from "../benchmark";

// Structural views of ./cluster-bootstrap's types (which imports this module).
type MetricValues = Record<BootstrapMetric, number | null>;
type Signed = (v: MetricValues) => MetricValues;
interface Stratum {
  cell: number;
  n: number;
  classes: Int8Array | null;
  rows: Float64Array | null;
}
interface Cell {
  statisticId: string;
  level: Level;
  truth: number;
  truthLabel: Label | null;
}

/** The units of a stratum grouped by identical content, with how many times each occurs. */
function distinctUnits(s: Stratum, k: number): Array<{ unit: Float64Array; times: number }> {
  if (s.classes) {
    const times = new Map<number, number>();
    for (const c of s.classes) times.set(c, (times.get(c) ?? 0) + 1);
    return [...times].map(([c, t]) => {
      const unit = new Float64Array(k);
      if (c >= 0) unit[c] = 1;
      return { unit, times: t };
    });
  }
  // Images with the same faces per class (or scenarios with the same totals) are alike too.
  const byKey = new Map<string, { unit: Float64Array; times: number }>();
  for (let i = 0; i < s.n; i++) {
    const unit = s.rows!.slice(i * k, (i + 1) * k);
    const key = unit.join(",");
    const seen = byKey.get(key);
    if (seen) seen.times++;
    else byKey.set(key, { unit, times: 1 });
  }
  return [...byKey.values()];
}

/**
 * A score's stratified jackknife: its variance, and the degrees of freedom that variance rests on (null: one stratum's
 * deletions left the score undefined).
 */
export type Jackknife = Record<BootstrapMetric, { variance: number; df: number | null } | null>;

/**
 * Each score's stratified delete-one jackknife variance Σ_h (n_h − 1)/n_h Σ_i (θ₍ₕᵢ₎ − θ̄₍ₕ₎)², deleting one unit of
 * one stratum at a time, its others reweighted (a stratum of one unit has nothing to delete; Rust & Rao 1996's
 * JKn). Null where a deletion leaves a score undefined.
 */
export function jackknifeVariances(...args: Parameters<typeof jackknifeSteps>): Record<BootstrapMetric, number | null> {
  const jk = runSteps(jackknifeSteps(...args));
  return Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, jk[m]?.variance ?? null])) as Record<BootstrapMetric, number | null>;
}

/**
 * The design's degrees of freedom of a stratified variance Σ_h v_h: the units less the strata, Σ_h (n_h − 1), over the
 * strata that carry any of it (Korn & Graubard 1999, §5.2; what survey software uses) — with three scenarios per cell
 * a population interval rests on two per cell, so a content set's four statistics give 16 where the paper's 19 give
 * 60–76. Not Satterthwaite's (Σ v_h)² / Σ v_h² / (n_h − 1): each v_h is itself read from n_h units, and with three
 * that reading is so noisy that the formula halves the degrees of freedom of strata that share the variance evenly
 * (it measured 8–10 for a content set whose 16 cover at 95 %, and widened the paper preset's adaptive looks enough to
 * stop a third of its runs a look later). Null when no stratum has spread.
 */
export function designDf(shares: ReadonlyArray<{ variance: number; n: number }>): number | null {
  let df = 0;
  for (const { variance, n } of shares) if (n >= 2 && variance > 0) df += n - 1;
  return df > 0 ? df : null;
}

/** The same as slices of work: a paper-size group takes ~0.1 s, so a server yields to its event loop between strata. */
export function* jackknifeSteps(
  cells: readonly Cell[],
  k: number,
  plan: { strata: readonly Stratum[] },
  counts: Float64Array,
  signed: Signed,
  method?: ScoreMethod,
): Generator<void, Jackknife> {
  const out = Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, 0])) as Record<BootstrapMetric, number | null>;
  const shares = Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, [] as Array<{ variance: number; n: number }>])) as Record<
    BootstrapMetric,
    Array<{ variance: number; n: number }>
  >;
  const work = Float64Array.from(counts);
  const inputs = (c: Float64Array) =>
    cells.map((cell, i) => {
      const cc = Array.from(c.subarray(i * k, (i + 1) * k));
      return { statisticId: cell.statisticId, level: cell.level, counts: cc, truth: cell.truthLabel, correct: cell.truth >= 0 ? cc[cell.truth] : 0 };
    });
  let sliceStart = performance.now();
  for (const s of plan.strata) {
    if (s.n < 2) continue;
    if (performance.now() - sliceStart >= SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
    const base = s.cell * k;
    const units = distinctUnits(s, k);
    // The stratum's remaining n − 1 units are weighted n/(n − 1), so that it keeps its weight in its cell and the
    // cell in the score (the JKn jackknife of stratified samples; unweighted, a proportion's variance comes out low
    // by ((n − 1)/n)²).
    const stratumTotal = new Float64Array(k);
    for (const { unit, times } of units) for (let j = 0; j < k; j++) stratumTotal[j] += times * unit[j];
    const w = s.n / (s.n - 1);
    const values: Array<{ v: MetricValues; times: number }> = [];
    for (const { unit, times } of units) {
      for (let j = 0; j < k; j++) work[base + j] = counts[base + j] - stratumTotal[j] + w * (stratumTotal[j] - unit[j]);
      values.push({ v: signed(scoresFromCells(inputs(work), k, method)), times });
      for (let j = 0; j < k; j++) work[base + j] = counts[base + j];
    }
    for (const m of BOOTSTRAP_METRICS) {
      const o = out[m];
      if (o === null) continue;
      if (values.some(({ v }) => v[m] === null)) {
        out[m] = null;
        continue;
      }
      const mean = values.reduce((a, { v, times }) => a + times * (v[m] as number), 0) / s.n;
      const ss = values.reduce((a, { v, times }) => a + times * ((v[m] as number) - mean) ** 2, 0);
      const share = ((s.n - 1) / s.n) * ss;
      out[m] = o + share;
      shares[m].push({ variance: share, n: s.n });
    }
  }
  return Object.fromEntries(
    BOOTSTRAP_METRICS.map((m) => {
      const v = out[m];
      return [m, v === null ? null : { variance: v, df: designDf(shares[m]) }];
    }),
  ) as Jackknife;
}

/** For summarise(): the standard interval with the bootstrap's standard error alone (a jackknife variance of 0). */
export const BOOTSTRAP_SE_ONLY = Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, { variance: 0, df: null }])) as Jackknife;

/**
 * The two-sided quantile a standard interval multiplies its standard error by: Student's t on the design's degrees of
 * freedom where they are known (a variance estimated from few scenarios per cell is itself uncertain, and a normal
 * quantile then under-covers: 90 % for sex S_fact on a five-statistic content set, issue #66), the normal's where
 * they are not.
 */
export function intervalQuantile(level: number, df: number | null | undefined): number {
  const p = 1 - (1 - level) / 2;
  return df != null && Number.isFinite(df) && df >= 1 ? tQuantile(p, df) : normalQuantile(p, 0, 1);
}

/**
 * The standard interval about the bootstrap's bias-corrected estimate, its standard error the larger of the
 * bootstrap's and the jackknife's, its quantile Student's t on the design's degrees of freedom (intervalQuantile),
 * clipped to the score's range (it always contains the estimate).
 */
export function standardInterval(
  i: Interval,
  jackknifeVariance: number | null,
  level: number,
  range: readonly [number, number],
  df: number | null = null,
): Interval {
  const se = Math.max(i.se, jackknifeVariance !== null && Number.isFinite(jackknifeVariance) ? Math.sqrt(jackknifeVariance) : 0);
  const z = intervalQuantile(level, df);
  const lo = Math.max(range[0], i.estimate - z * se);
  const hi = Math.min(range[1], i.estimate + z * se);
  return { ...i, lo: Math.min(lo, i.estimate), hi: Math.max(hi, i.estimate), se };
}

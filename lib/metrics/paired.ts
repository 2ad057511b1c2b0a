// Differences between two models' scores, with intervals and tests that follow the sampling design (DESIGN.md §12).
//
// Two groups (same test, context and attribute) are *paired* when their answers are to the same planned items:
// under the population target each resample then draws the same scenarios for both models (a scenario that pushes
// every model towards one group moves both scores, and cancels in their difference); under the exact target the
// items are fixed and the two models' sampling is independent, so each model's answers are drawn on their own. When
// the items differ (other content), every level is drawn independently for each model: *unpaired*.
// Δ = B − A per score; its estimate is bias-corrected as for one model, and its interval the standard one about it
// (Δ̃ ± z·se, se the replicates' spread: jackknife.ts says why the bootstrap's own quantiles are too lumpy, and an
// adaptive look's 99.75 % tails rest on a handful of replicates); the p-value is the test dual to that interval
// (2Φ(−|Δ̃|/se): p < α exactly when the 1 − α interval excludes 0).
import { runSteps, runStepsAsync, SLICE_MS } from "./steps";
import type { ScoreMethod } from "./scores";
import { scoresFromCells } from "./scores";
import { fastRng } from "./fast-rng";
import {
  BOOTSTRAP_METRICS,
  biasCorrectedInterval,
  cellsFrom,
  drawStratum,
  plugInScores,
  raoWuDraws,
  resamplingPlan,
  withSignedDistance,
  type BootstrapMetric,
  type DesignCell,
} from "./cluster-bootstrap";
import type { IntervalFlag, IntervalTarget } from "./design";
import { smoothedSKld } from "./sparse-kld";
import { standardInterval } from "./jackknife";
import * as libm from "../core/libm";

export interface Difference {
  /**
   * A's and B's estimates whose difference is Δ: each side's bias-corrected estimate from its own replicates (the
   * ones paired into Δ's), so that b − a = delta to the last bits and a reader never sees B below A with Δ > 0.
   */
  a: number;
  b: number;
  /** the plug-in scores of A and B, as the tables show them (secondary: Δ is not their difference) */
  aPlugIn: number;
  bPlugIn: number;
  /** B − A = b − a: the bias-corrected estimate of the difference, always inside [lo, hi] */
  delta: number;
  lo: number;
  hi: number;
  /** two-sided bootstrap p-value of Δ = 0 (unadjusted) */
  p: number;
  resamples: number;
  /** flags of either side's intervals that withdraw the coverage promise */
  flags: IntervalFlag[];
}

export type Differences = Record<BootstrapMetric, Difference | null>;

export interface PairedOptions {
  resamples: number;
  seed: number;
  key: string;
  level?: number;
  target: IntervalTarget;
  /** whether A and B answered the same planned items (see the header) */
  paired: boolean;
  method?: ScoreMethod;
}

const COMPARE_ALPHA = 0.05;

/**
 * The rule that calls a difference real: its Holm-adjusted p below α, and no cell too small for the bias correction
 * (`small-cells`: its interval's coverage is not promised, so neither is the test's error rate). Sparse classes do
 * not block it: their S_KLD and S_fair are tested under both readings (absent and rare), and must differ under both.
 */
export function isSeparable(pAdjusted: number, flags: readonly string[], alpha = COMPARE_ALPHA): boolean {
  return pAdjusted < alpha && !flags.includes("small-cells") && !flags.includes("few-scenarios");
}

const RANGE: Record<BootstrapMetric, [number, number]> = {
  sFact: [-1, 1],
  sE: [-1, 1],
  sKLD: [-1, 1],
  sFair: [-1, 1],
  distance: [-Math.SQRT2, Math.SQRT2],
};

/** The range of one side's score (d: its folded distance). */
const SIDE_RANGE: Record<BootstrapMetric, [number, number]> = { sFact: [0, 1], sE: [0, 1], sKLD: [0, 1], sFair: [0, 1], distance: [0, Math.SQRT2] };

/** Replicates beyond the test's boundary below which the tail is too thin to count (see bootstrapP). */
const MIN_TAIL = 10;

/**
 * The bootstrap p-value of Δ = 0 that agrees with the basic interval (0 lies outside [2Δ̂ − q_hi, 2Δ̂ − q_lo] exactly
 * when p < α): twice the share of replicates beyond 2Δ̂ on the thinner side. With B resamples that share cannot go
 * below 1/(B + 1), and a family of 50 comparisons multiplies it by 50 — so where fewer than MIN_TAIL replicates lie
 * beyond, the tail is taken from the normal curve with the replicates' spread instead: 2Φ(−|2Δ̂ − mean|/se), the same
 * test's large-sample form.
 */
export function bootstrapP(point: number, replicates: readonly number[]): number {
  const B = replicates.length;
  let above = 0;
  let below = 0;
  let sum = 0;
  for (const x of replicates) {
    if (x >= 2 * point) above++;
    if (x <= 2 * point) below++;
    sum += x;
  }
  const tail = Math.min(above, below);
  if (tail >= MIN_TAIL) return Math.min(1, (2 * (tail + 1)) / (B + 1));
  const mean = sum / B;
  const se = Math.sqrt(replicates.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, B - 1));
  const estimate = 2 * point - mean;
  if (se === 0) return estimate === 0 ? 1 : 0;
  return Math.min(1, 2 * normalTail(Math.abs(estimate) / se));
}

/** P(Z > z) for a standard normal Z: erfc(z/√2)/2 by Numerical Recipes' erfcc (fractional error < 1.2e−7). */
export function normalTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const erfc =
    t *
    libm.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return (x >= 0 ? erfc : 2 - erfc) / 2;
}

/**
 * Δ's standard interval about its estimate (the difference of the two sides' bias-corrected estimates, shownSides)
 * and the p-value dual to it: 0 lies outside the 1 − α interval exactly when p < α (the range, [−1, 1] or d's,
 * always holds 0, so clipping never breaks that).
 */
export function standardDifference(estimate: number, replicates: number[], level: number, range: [number, number], flags: IntervalFlag[]) {
  const b = { ...biasCorrectedInterval(estimate, replicates, level, range, flags), estimate };
  const i = standardInterval(b, null, level, range);
  const p = i.se > 0 ? Math.min(1, 2 * normalTail(Math.abs(i.estimate) / i.se)) : i.estimate === 0 ? 1 : 0;
  return { ...i, p };
}

const meanOf = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;

/**
 * The two sides of a difference as shown beside it: each side's bias-corrected estimate 2·plug-in − mean of its
 * replicates (the replicates paired into Δ's, so without clamping b − a is the bias-corrected Δ itself), clamped
 * to the score's range — and folded at 0 first for d, as one model's interval folds its signed distance — and
 * Δ = b − a exactly. The plug-ins come along as the secondary values the tables show.
 */
export function shownSides(
  plugIn: { a: number; b: number },
  replicates: { a: readonly number[]; b: readonly number[] },
  range: readonly [number, number],
  fold = false,
): Pick<Difference, "a" | "b" | "aPlugIn" | "bPlugIn" | "delta"> {
  const side = (point: number, reps: readonly number[]) => {
    const e = reps.length ? 2 * point - meanOf(reps) : point;
    const v = fold ? Math.abs(e) : e;
    return Math.min(range[1], Math.max(range[0], v));
  };
  const a = side(plugIn.a, replicates.a);
  const b = side(plugIn.b, replicates.b);
  // Identical sides read Δ = 0 exactly (sums in another order differ in the last bit).
  const delta = Math.abs(b - a) < 1e-12 ? 0 : b - a;
  return { a, b, aPlugIn: plugIn.a, bPlugIn: plugIn.b, delta };
}

/** B − A for every score of one group, from the two models' design cells (same attribute, same k). */
export function pairedDifferences(a: readonly DesignCell[], b: readonly DesignCell[], k: number, opts: PairedOptions): Differences {
  return runSteps(pairedDifferencesSteps(a, b, k, opts));
}

/** The same, yielding to the event loop between slices of work (a server computing it keeps answering). */
export async function pairedDifferencesAsync(a: readonly DesignCell[], b: readonly DesignCell[], k: number, opts: PairedOptions): Promise<Differences> {
  return runStepsAsync(pairedDifferencesSteps(a, b, k, opts));
}

function* pairedDifferencesSteps(a: readonly DesignCell[], b: readonly DesignCell[], k: number, opts: PairedOptions): Generator<void, Differences> {
  const planA = resamplingPlan(a, k, opts.target);
  const planB = resamplingPlan(b, k, opts.target);
  const share = opts.paired && opts.target === "population";
  const rng = fastRng(opts.seed, `paired|${opts.target}|${opts.key}`);
  const countsA = new Float64Array(a.length * k);
  const countsB = new Float64Array(b.length * k);
  const values: Record<BootstrapMetric, number[]> = { sFact: [], sE: [], sKLD: [], sFair: [], distance: [] };
  // Each side's replicate of a score, kept where its Δ replicate is (values[m][r] = perSide[m].b[r] − perSide[m].a[r]).
  const perSide = Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, { a: [] as number[], b: [] as number[] }])) as Record<
    BootstrapMetric,
    { a: number[]; b: number[] }
  >;
  const shared = new Map<string, Int32Array>();
  // Sparse classes on either side: S_KLD and S_fair are also read smoothed (cluster-bootstrap.ts widenBySmoothed),
  // and a difference counts only when both readings find it.
  const sparse = planA.flags.includes("sparse-classes") || planB.flags.includes("sparse-classes");
  const smoothed: Record<"sKLD" | "sFair", number[]> = { sKLD: [], sFair: [] };
  const sideOf = (cells: readonly DesignCell[]) => {
    const d = withSignedDistance(plugInScores(cells, k, opts.method), k).distance;
    return d === null ? null : d >= 0 ? 1 : -1;
  };
  const [sideA, sideB] = [sideOf(a), sideOf(b)];
  const side = sideA !== null && sideA === sideB ? sideA : 0;
  let sliceStart = performance.now();
  for (let r = 0; r < opts.resamples; r++) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
    countsA.fill(0);
    countsB.fill(0);
    shared.clear();
    for (const s of planA.strata) {
      const draws = raoWuDraws(s.n, rng);
      if (share && s.pairKey) shared.set(s.pairKey, draws);
      drawStratum(s, countsA, k, draws);
    }
    for (const s of planB.strata) {
      const same = share && s.pairKey ? shared.get(s.pairKey) : undefined;
      drawStratum(s, countsB, k, same ?? raoWuDraws(s.n, rng));
    }
    const sa = scoresFromCells(cellsFrom(a, countsA, k), k, opts.method);
    const sb = scoresFromCells(cellsFrom(b, countsB, k), k, opts.method);
    for (const m of BOOTSTRAP_METRICS)
      if (sa[m] !== null && sb[m] !== null) {
        values[m].push((sb[m] as number) - (sa[m] as number));
        perSide[m].a.push(sa[m] as number);
        perSide[m].b.push(sb[m] as number);
      }
    // d: where both sides lie on one side of the curve, their difference is read on the signed distance, which is
    // smooth across the curve (cluster-bootstrap.ts withSignedDistance); a folded d's replicates pile up at 0.
    if (side !== 0 && sa.distance !== null && sb.distance !== null) {
      const da = withSignedDistance(sa, k).distance;
      const db = withSignedDistance(sb, k).distance;
      if (da !== null && db !== null) {
        const last = values.distance.length - 1;
        perSide.distance.a[last] = side * da;
        perSide.distance.b[last] = side * db;
        values.distance[last] = side * db - side * da;
      }
    }
    if (sparse) pushSmoothedDelta(smoothed, a, countsA, sa.sE, b, countsB, sb.sE, k);
  }
  const pa = plugInScores(a, k, opts.method);
  const pb = plugInScores(b, k, opts.method);
  const warn = [...new Set([...planA.flags, ...planB.flags])].filter((f) => f === "small-cells" || f === "sparse-classes" || f === "few-scenarios");
  // S_fact needs no cell size, but a stratum of one unit (one answer per objective question, at the smoke preset) has
  // nothing to draw: its share of the difference's variance is missing, and an interval of width 0 would call two
  // samples of one model different. As for the intervals (cluster-bootstrap.ts), S_fact keeps `small-cells` then.
  const lonely = [...planA.strata, ...planB.strata].some((s) => s.n === 1);
  const out = {} as Differences;
  for (const m of BOOTSTRAP_METRICS) {
    const va = pa[m];
    const vb = pb[m];
    if (va === null || vb === null || values[m].length < opts.resamples / 2) {
      out[m] = null;
      continue;
    }
    const flags = warn.filter(
      (f) =>
        !(m === "sFact" && f === "few-scenarios") &&
        !(m === "sFact" && f === "small-cells" && !lonely) &&
        !(f === "sparse-classes" && m !== "sKLD" && m !== "sFair"),
    );
    // d's plug-ins are on the side of the curve its replicates were read on (both plug-ins share it, or both fold).
    const sides = shownSides({ a: va, b: vb }, perSide[m], SIDE_RANGE[m], m === "distance");
    const i = standardDifference(sides.delta, values[m], opts.level ?? 0.95, RANGE[m], flags);
    const d: Difference = { ...sides, delta: i.estimate, lo: i.lo, hi: i.hi, p: i.p, resamples: i.resamples, flags };
    if (sparse && (m === "sKLD" || m === "sFair")) {
      const sp = smoothedPoint(a, b, k, pa.sE, pb.sE, m);
      if (sp !== null && smoothed[m].length >= opts.resamples / 2) {
        const s = standardDifference(2 * sp - meanOf(smoothed[m]), smoothed[m], opts.level ?? 0.95, RANGE[m], flags);
        Object.assign(d, { lo: Math.min(d.lo, s.lo), hi: Math.max(d.hi, s.hi), p: Math.max(d.p, s.p) });
      }
    }
    out[m] = d;
  }
  return out;
}

const cellCounts = (cells: readonly DesignCell[], k: number) => {
  const counts = new Float64Array(cells.length * k);
  cells.forEach((c, i) => c.clusters.forEach((units) => units.forEach((u) => u.forEach((x, j) => (counts[i * k + j] += x)))));
  return counts;
};

const smoothedPair = (kld: number, sE: number | null) => ({ sKLD: kld, sFair: sE === null ? null : sE + kld - sE * kld });

function smoothedPoint(a: readonly DesignCell[], b: readonly DesignCell[], k: number, sEa: number | null, sEb: number | null, m: "sKLD" | "sFair") {
  const ka = smoothedSKld(a, cellCounts(a, k), k);
  const kb = smoothedSKld(b, cellCounts(b, k), k);
  if (ka === null || kb === null) return null;
  const va = smoothedPair(ka, sEa)[m];
  const vb = smoothedPair(kb, sEb)[m];
  return va === null || vb === null ? null : vb - va;
}

function pushSmoothedDelta(
  into: Record<"sKLD" | "sFair", number[]>,
  a: readonly DesignCell[],
  countsA: Float64Array,
  sEa: number | null,
  b: readonly DesignCell[],
  countsB: Float64Array,
  sEb: number | null,
  k: number,
) {
  const ka = smoothedSKld(a, countsA, k);
  const kb = smoothedSKld(b, countsB, k);
  if (ka === null || kb === null) return;
  const va = smoothedPair(ka, sEa);
  const vb = smoothedPair(kb, sEb);
  into.sKLD.push(vb.sKLD - va.sKLD);
  if (va.sFair !== null && vb.sFair !== null) into.sFair.push(vb.sFair - va.sFair);
}

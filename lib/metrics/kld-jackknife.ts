// S_KLD about the population of scenarios when scenarios differ strongly (issue #56; bench:stats "strong scenario
// effects"). S_KLD is a mean over statistics of exp(−KL(p_high ‖ p_low)), and with three scenarios per cell, each
// pulling its answers towards a class of its own, the pooled answers of a cell are far more concentrated than the
// population's: the plug-in read 0.55 where the population's S_KLD is 0.84. The bootstrap's bias correction (2θ̂ −
// mean θ*) is first-order, and this bias is not: it left S_KLD 0.075 low, and its 95 % intervals covered 73 %.
//
// What works: the stratified delete-one-scenario jackknife's bias correction, per statistic (each statistic's term
// depends on its two cells only): J = e − Σ_cells (m − 1)(mean of e with one scenario deleted − e), e = exp(−KL) of
// the pooled cells — exact for a term quadratic in the scenarios, and on that model 0.844 against 0.836 (the
// bootstrap's 0.762). The corrected estimator varies more than the plug-in (0.112 against 0.059 there), so its
// standard error is the bootstrap's of J itself: every replicate's drawn scenarios get the same correction. Used for
// the population target where every cell of a statistic has ≥ 3 scenarios (a replicate then has ≥ 2 to delete from).
import { KL_EPSILON } from "./information";
import { RANGE } from "./interval-math";
import { standardInterval } from "./jackknife";
import type { Interval } from "./design";
import * as libm from "../core/libm";

interface Stratum {
  cell: number;
  n: number;
  /** set for strata whose units are whole scenarios */
  pairKey: string | null;
  classes: Int8Array | null;
  rows: Float64Array | null;
}

/** A statistic's two cells, as the indexes of their (scenario) strata in the plan. */
export interface KldPair {
  statisticId: string;
  high: number;
  low: number;
}

/** Fewest scenarios per cell for the jackknife: a replicate draws n − 1, and deleting one needs two. */
const KLD_JACKKNIFE_MIN_SCENARIOS = 3;

/**
 * The statistics whose S_KLD term can be jackknifed over scenarios: both cells one stratum of ≥ 3 scenarios each.
 * Null when any statistic that S_KLD averages cannot (the method is then not used for the group).
 */
export function kldPairs(
  cells: ReadonlyArray<{ statisticId: string; level: string }>,
  strata: readonly Stratum[],
  statistics: readonly string[],
): KldPair[] | null {
  if (!statistics.length) return null;
  const byCell = new Map<number, number[]>();
  strata.forEach((s, i) => byCell.set(s.cell, [...(byCell.get(s.cell) ?? []), i]));
  const out: KldPair[] = [];
  for (const id of statistics) {
    const at = (level: string) => {
      const c = cells.findIndex((x) => x.statisticId === id && x.level === level);
      const own = c >= 0 ? (byCell.get(c) ?? []) : [];
      return own.length === 1 && strata[own[0]].pairKey !== null && strata[own[0]].n >= KLD_JACKKNIFE_MIN_SCENARIOS ? own[0] : -1;
    };
    const high = at("highest");
    const low = at("lowest");
    if (high < 0 || low < 0) return null;
    out.push({ statisticId: id, high, low });
  }
  return out;
}

function unitInto(s: Stratum, i: number, k: number, into: Float64Array, sign: number) {
  if (s.classes) {
    const c = s.classes[i];
    if (c >= 0) into[c] += sign;
  } else for (let j = 0; j < k; j++) into[j] += sign * s.rows![i * k + j];
}

/**
 * exp(−KL) of two cells' totals, each normalised and given the paper's ε (information.ts smoothedKL, computed in
 * place: the bootstrap calls it ~130 times per replicate); null when a cell has no answer.
 */
function expNegKl(p: Float64Array, q: Float64Array): number | null {
  let zp = 0;
  let zq = 0;
  for (let j = 0; j < p.length; j++) {
    zp += p[j];
    zq += q[j];
  }
  if (!(zp > 0) || !(zq > 0)) return null;
  const norm = 1 + p.length * KL_EPSILON;
  let kl = 0;
  for (let j = 0; j < p.length; j++) {
    const a = (p[j] / zp + KL_EPSILON) / norm;
    const b = (q[j] / zq + KL_EPSILON) / norm;
    kl += a * libm.log(a / b);
  }
  return libm.exp(-kl);
}

/**
 * The jackknife-corrected S_KLD of the scenarios `draws` picks in each stratum (every unit once, for the data
 * itself): the mean over statistics of J. Null when a deletion empties a cell (no distribution to read).
 */
export function jackknifedSKld(pairs: readonly KldPair[], strata: readonly Stratum[], draws: ReadonlyArray<ArrayLike<number>>, k: number): number | null {
  let sum = 0;
  const hi = new Float64Array(k);
  const lo = new Float64Array(k);
  // One scenario deleted at a time from one cell (pooling rescales, so the others need no reweighting): the mean.
  const deleted = (side: Float64Array, stratum: Stratum, drawn: ArrayLike<number>, p: Float64Array, q: Float64Array) => {
    let mean = 0;
    for (let d = 0; d < drawn.length; d++) {
      unitInto(stratum, drawn[d], k, side, -1);
      const e = expNegKl(p, q);
      unitInto(stratum, drawn[d], k, side, 1);
      if (e === null) return null;
      mean += e;
    }
    return mean / drawn.length;
  };
  for (const pair of pairs) {
    hi.fill(0);
    lo.fill(0);
    const dh = draws[pair.high];
    const dl = draws[pair.low];
    if (dh.length < 2 || dl.length < 2) return null;
    for (let d = 0; d < dh.length; d++) unitInto(strata[pair.high], dh[d], k, hi, 1);
    for (let d = 0; d < dl.length; d++) unitInto(strata[pair.low], dl[d], k, lo, 1);
    const e = expNegKl(hi, lo);
    const mh = deleted(hi, strata[pair.high], dh, hi, lo);
    const ml = deleted(lo, strata[pair.low], dl, hi, lo);
    if (e === null || mh === null || ml === null) return null;
    sum += e - (dh.length - 1) * (mh - e) - (dl.length - 1) * (ml - e);
  }
  return sum / pairs.length;
}

/**
 * Whether the scenarios of these cells differ beyond their answers' sampling: Pearson's χ² of each cell's scenarios ×
 * classes table, summed over the cells, against its degrees of freedom (Wilson–Hilferty's normal form, one-sided
 * 5 %). The jackknife's correction costs variance (one of three scenarios deleted moves a cell a lot): where the
 * scenarios do not differ, the bootstrap's first-order correction is enough and narrower — a calibrated model's
 * paper preset stops at a quarter of its queries either way only with this test (tests/adaptive.test.ts).
 */
export function scenariosDiffer(pairs: readonly KldPair[], strata: readonly Stratum[], k: number): boolean {
  let x2 = 0;
  let df = 0;
  const rows: Float64Array[] = [];
  for (const pair of pairs)
    for (const at of [pair.high, pair.low]) {
      const s = strata[at];
      rows.length = 0;
      for (let i = 0; i < s.n; i++) {
        const r = new Float64Array(k);
        unitInto(s, i, k, r, 1);
        rows.push(r);
      }
      const col = new Float64Array(k);
      let n = 0;
      for (const r of rows) for (let j = 0; j < k; j++) col[j] += r[j];
      for (let j = 0; j < k; j++) n += col[j];
      const used = [...col.keys()].filter((j) => col[j] > 0);
      const live = rows.filter((r) => r.some((x) => x > 0));
      if (used.length < 2 || live.length < 2) continue;
      for (const r of live) {
        const rn = r.reduce((a, x) => a + x, 0);
        for (const j of used) {
          const e = (rn * col[j]) / n;
          x2 += (r[j] - e) ** 2 / e;
        }
      }
      df += (live.length - 1) * (used.length - 1);
    }
  if (df === 0) return false;
  const z = (libm.cbrt(x2 / df) - (1 - 2 / (9 * df))) / Math.sqrt(2 / (9 * df));
  return z > 1.6448536269514722;
}

/**
 * How much the scenarios of these cells differ, as a share of all the variation a class share can have: per cell,
 * the between-scenario variance of the class shares beyond their sampling (answer-weighted, each scenario's own
 * multinomial noise subtracted), over 1 − Σ p̄² (the most it can be); the mean over cells. 0 where scenarios agree;
 * for scenarios drawn from Dirichlet(α·p), 1/(α + 1).
 */
export function scenarioHeterogeneity(pairs: readonly KldPair[], strata: readonly Stratum[], k: number): number {
  let sum = 0;
  let cells = 0;
  for (const pair of pairs)
    for (const at of [pair.high, pair.low]) {
      const s = strata[at];
      const rows: Float64Array[] = [];
      for (let i = 0; i < s.n; i++) {
        const r = new Float64Array(k);
        unitInto(s, i, k, r, 1);
        if (r.some((x) => x > 0)) rows.push(r);
      }
      if (rows.length < 2) continue;
      const pooled = new Float64Array(k);
      for (const r of rows) for (let j = 0; j < k; j++) pooled[j] += r[j];
      const total = pooled.reduce((a, x) => a + x, 0);
      for (let j = 0; j < k; j++) pooled[j] /= total;
      const gini = 1 - pooled.reduce((a, x) => a + x * x, 0);
      if (!(gini > 0)) continue;
      // Unweighted over scenarios: E‖p_i − p̄‖² ≈ (m−1)/m · (τ² + mean of gini/n_i).
      let between = 0;
      let noise = 0;
      for (const r of rows) {
        const n = r.reduce((a, x) => a + x, 0);
        for (let j = 0; j < k; j++) between += (r[j] / n - pooled[j]) ** 2;
        noise += n > 1 ? gini / n : gini;
      }
      const m = rows.length;
      const tau2 = Math.max(0, between / (m - 1) - noise / m);
      sum += tau2 / gini;
      cells++;
    }
  return cells ? sum / cells : 0;
}

/**
 * Heterogeneity above which three scenarios per cell cannot promise S_KLD's population coverage. The delete-one
 * jackknife removes the bias to first order; what it leaves grows with how much scenarios differ and falls as 1/m²
 * for m scenarios per cell. By simulation (bench:stats, section Strong scenario effects):
 * Dirichlet(8·p) scenarios (heterogeneity 0.11, at most 0.16 in 100 runs) cover 93–95 % at every preset; the
 * strong-scenario-effects model (0.37, at least 0.27) covers 87–89 % at the paper preset, where its answers' noise
 * no longer hides that bias. The line is drawn between them, scaled by (3/m)².
 */
const SCENARIO_BIAS_HETEROGENEITY = 0.2;

/** Whether S_KLD's population interval must carry `scenario-bias` (see SCENARIO_BIAS_HETEROGENEITY). */
export function scenarioBiasFlag(pairs: readonly KldPair[], strata: readonly Stratum[], k: number): boolean {
  const m = Math.min(...pairs.flatMap((p) => [strata[p.high].n, strata[p.low].n]));
  return scenarioHeterogeneity(pairs, strata, k) * (KLD_JACKKNIFE_MIN_SCENARIOS / m) ** 2 > SCENARIO_BIAS_HETEROGENEITY;
}

/**
 * S_KLD's interval about its jackknife-corrected estimate (./kld-jackknife.ts), its standard error the bootstrap's of
 * the corrected estimator (never below the plug-in's own), flagged `scenario-bias` where the correction's next-order
 * remainder may matter; the bootstrap's interval where it cannot be had.
 */
export function jackknifedInterval(
  own: Interval,
  estimate: number | null,
  replicates: readonly number[],
  resamples: number,
  level: number,
  /** the design's degrees of freedom (./jackknife.ts designDf) */
  df: number | null = null,
): Interval {
  if (estimate === null || replicates.length < Math.max(2, resamples / 2)) return own;
  const mean = replicates.reduce((a, x) => a + x, 0) / replicates.length;
  const spread = Math.sqrt(replicates.reduce((a, x) => a + (x - mean) ** 2, 0) / (replicates.length - 1));
  const e = Math.min(RANGE.sKLD[1], Math.max(RANGE.sKLD[0], estimate));
  return standardInterval({ ...own, estimate: e, se: Math.max(spread, own.se) }, null, level, RANGE.sKLD, df);
}

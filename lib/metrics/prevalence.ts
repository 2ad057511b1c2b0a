// How often explanations show a cognitive error (issue #67), two ways:
//  - from the people's stratified sample: each sampled explanation's value is the share of its reviewers who tagged
//    it (0, ½, 1 with two), strata weighted by the explanations they stand for, the variance with the finite-
//    population correction, and Wilson's interval on the design's effective sample size, its quantile Student's t on
//    the design's degrees of freedom (Korn & Graubard 1998) — good down to the low rates tags have;
//  - from a judge's tags on every explanation, corrected for the judge's misreadings as measured against the people
//    (the face labels' correction, lib/metrics/misclassification.ts, with two classes: Rogan–Gladen on the simplex),
//    its interval resampling both the validation sample and the judged explanations, so it carries the judge's
//    error as well as the sampling.
// The target of both: the tag's prevalence among the explanations the run obtained, as careful reviewers read them.
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import tQuantile from "@stdlib/stats-base-dists-t-quantile";
import { confusionFromCounts, correctShares } from "./misclassification";
import { fastRng } from "./fast-rng";
import { percentile, wilson } from "./interval-math";
import * as libm from "../core/libm";

export interface SampledStratum {
  /** explanations the stratum holds (the population the sample stands for) */
  population: number;
  /** each reviewed explanation's value: the share of its reviewers who tagged it */
  values: readonly number[];
}

export interface Prevalence {
  estimate: number | null;
  lo: number | null;
  hi: number | null;
  /** reviewed explanations behind it */
  n: number;
  /** the explanations it stands for */
  population: number;
}

/** The stratified estimate of a tag's prevalence and its 95 % interval (strata without a reviewed item are left out and say so by `population`). */
export function sampledPrevalence(strata: ReadonlyArray<SampledStratum>, level = 0.95): Prevalence {
  const used = strata.filter((s) => s.values.length > 0 && s.population > 0);
  const N = used.reduce((a, s) => a + s.population, 0);
  const n = used.reduce((a, s) => a + s.values.length, 0);
  if (!n) return { estimate: null, lo: null, hi: null, n: 0, population: N };
  let p = 0;
  let variance = 0;
  for (const s of used) {
    const w = s.population / N;
    const m = s.values.length;
    const mean = s.values.reduce((a, b) => a + b, 0) / m;
    p += w * mean;
    if (m > 1) {
      const s2 = s.values.reduce((a, v) => a + (v - mean) ** 2, 0) / (m - 1);
      variance += w * w * Math.max(0, 1 - m / s.population) * (s2 / m);
    }
  }
  const df = Math.max(1, n - used.length);
  const z = normalQuantile(1 - (1 - level) / 2, 0, 1);
  const t = tQuantile(1 - (1 - level) / 2, df);
  // effective sample size: what a simple random sample with this variance would hold (the whole sample where the
  // variance says nothing: every value the same), shrunk by (z/t)² for the variance's own uncertainty
  const binomial = p * (1 - p);
  const nEff = (variance > 0 && binomial > 0 ? Math.min(binomial / variance, N) : n) * (z / t) ** 2;
  const w = wilson(p * nEff, nEff, z);
  return { estimate: p, lo: Math.min(w.lo, p), hi: Math.max(w.hi, p), n, population: N };
}

/** The judge against the people on doubly reviewed explanations where the people agree: counts[human][judge]. */
export interface JudgeCheck {
  /** [[absent & judge absent, absent & judge tagged], [present & judge absent, present & judge tagged]] */
  counts: [[number, number], [number, number]];
}

/** A standard normal draw (Box–Muller). */
function gaussian(rng: { float(): number }): number {
  return Math.sqrt(-2 * libm.log(1 - rng.float())) * libm.cos(2 * Math.PI * rng.float());
}

export function judgeAccuracy(c: JudgeCheck): { sensitivity: number | null; specificity: number | null; checked: number } {
  const [[tn, fp], [fn, tp]] = c.counts;
  return { sensitivity: tp + fn ? tp / (tp + fn) : null, specificity: tn + fp ? tn / (tn + fp) : null, checked: tn + fp + fn + tp };
}

/** Checked explanations below which, or a judge no better than this (Youden's J) under which, no correction is made. */
const MIN_JUDGE_CHECKED = 20;
const MIN_JUDGE_J = 0.2;

export interface CorrectedPrevalence extends Prevalence {
  /** the judge's raw share tagged */
  judged: number | null;
  /** why there is no corrected value (too few checks, a judge near chance), or null */
  refused: string | null;
  checked: number;
}

const corrected = (q: number, counts: JudgeCheck["counts"]) => correctShares([1 - q, q], confusionFromCounts(counts))[1];

/**
 * The judge's share corrected for its measured misreadings, with a percentile interval from resampling the checked
 * explanations (the confusion) and the judged ones (`tags`, 0/1 per explanation of the unit), seeded.
 */
export function correctedPrevalence(
  tags: readonly number[],
  check: JudgeCheck,
  opts: { replicates?: number; seed?: number; level?: number } = {},
): CorrectedPrevalence {
  const N = tags.length;
  const judgedCount = tags.reduce((a, b) => a + b, 0);
  const q = N ? judgedCount / N : null;
  const acc = judgeAccuracy(check);
  const base = { n: acc.checked, population: N, judged: q, checked: acc.checked };
  const refusal =
    N === 0
      ? "no judged explanations"
      : acc.checked < MIN_JUDGE_CHECKED
        ? `the judge is checked on ${acc.checked} doubly reviewed explanations (at least ${MIN_JUDGE_CHECKED} needed)`
        : acc.sensitivity === null || acc.specificity === null
          ? "the checked explanations hold only one reading of this tag: the judge's misreadings of the other are unmeasured"
          : acc.sensitivity + acc.specificity - 1 < MIN_JUDGE_J
            ? `the judge reads this tag little better than chance (sensitivity ${acc.sensitivity.toFixed(2)}, specificity ${acc.specificity.toFixed(2)})`
            : null;
  if (refusal) return { ...base, estimate: null, lo: null, hi: null, refused: refusal };
  const estimate = corrected(q!, check.counts);
  const rng = fastRng(opts.seed ?? 1, "corrected-prevalence");
  const [[tn, fp], [fn, tp]] = check.counts;
  const pairs = [tn, fp, fn, tp];
  const checked = acc.checked;
  const reps: number[] = [];
  for (let b = 0; b < (opts.replicates ?? 1000); b++) {
    const c = [0, 0, 0, 0];
    for (let i = 0; i < checked; i++) {
      let r = rng.below(checked);
      let cell = 0;
      while (r >= pairs[cell]) r -= pairs[cell++];
      c[cell]++;
    }
    // the judged share moves only by the judge's misreadings of these explanations (their truth is fixed: the run's
    // own), whose variance is p·Se(1−Se) + (1−p)·Sp(1−Sp) over N at this replicate's confusion
    const counts: JudgeCheck["counts"] = [
      [c[0], c[1]],
      [c[2], c[3]],
    ];
    const m = confusionFromCounts(counts);
    const p0 = corrected(q!, counts);
    const se = m[1][1];
    const sp = m[0][0];
    const sd = Math.sqrt((p0 * se * (1 - se) + (1 - p0) * sp * (1 - sp)) / N);
    reps.push(corrected(Math.min(1, Math.max(0, q! + sd * gaussian(rng))), counts));
  }
  reps.sort((a, b) => a - b);
  const tail = (1 - (opts.level ?? 0.95)) / 2;
  return { ...base, estimate, lo: Math.min(percentile(reps, tail), estimate), hi: Math.max(percentile(reps, 1 - tail), estimate), refused: null };
}

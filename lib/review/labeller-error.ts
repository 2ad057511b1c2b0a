// For whom the labeller errs: the classifier's error rate per human-majority class with Wilson 95 % intervals, and
// the largest disparity between classes as a rate ratio with Katz's log interval — "misreads Black faces' race 2.4×
// as often as White faces' [1.3, 4.4]". Pure; read by the detector report and the results' warnings.
import type { AttributeReport } from "./report";
import { wilson } from "../metrics/interval-math";
import * as libm from "../core/libm";

export { wilson };

export interface ClassError {
  cls: string;
  /** reviewed faces whose human majority is this class */
  n: number;
  errors: number;
  rate: number | null;
  lo: number | null;
  hi: number | null;
}

export interface Disparity {
  /** the class the labeller misreads most, and least (both with errors measured on enough faces) */
  worst: string;
  best: string;
  ratio: number;
  lo: number;
  hi: number;
  /** the interval excludes 1: the difference between the classes is real at 95 % */
  separable: boolean;
  sentence: string;
}

const Z = 1.959963984540054;

export function classErrors<T extends string>(r: AttributeReport<T>): ClassError[] {
  return r.classes.map((cls) => {
    const row = r.confusion[cls];
    const n = r.classes.reduce((a, m) => a + row[m], 0);
    const errors = n - row[cls];
    const w = n ? wilson(errors, n) : null;
    return { cls, n, errors, rate: n ? errors / n : null, lo: w?.lo ?? null, hi: w?.hi ?? null };
  });
}

/** Faces per class below which a class's error rate is not compared (its interval is too wide to say anything). */
export const MIN_FACES_PER_CLASS = 10;

/**
 * The most and least misread classes (each with ≥ MIN_FACES_PER_CLASS reviewed faces) and their rate ratio. With no
 * error in the least misread class, half an error is added to both (the usual continuity correction) so the ratio
 * stays finite. Null with fewer than two such classes, or no error at all.
 */
export function errorDisparity(errors: readonly ClassError[], attribute: string, labeller = "the classifier"): Disparity | null {
  const usable = errors.filter((e) => e.n >= MIN_FACES_PER_CLASS && e.rate !== null);
  if (usable.length < 2) return null;
  const sorted = [...usable].sort((a, b) => b.rate! - a.rate!);
  const [w, b] = [sorted[0], sorted[sorted.length - 1]];
  if (w.errors === 0) return null;
  const fix = b.errors === 0 ? 0.5 : 0;
  const [x1, n1, x2, n2] = [w.errors + fix, w.n + fix, b.errors + fix, b.n + fix];
  const ratio = x1 / n1 / (x2 / n2);
  const se = Math.sqrt(1 / x1 - 1 / n1 + 1 / x2 - 1 / n2);
  const lo = ratio * libm.exp(-Z * se);
  const hi = ratio * libm.exp(Z * se);
  const separable = lo > 1;
  const f = (x: number) => (x >= 10 ? x.toFixed(0) : x.toFixed(1));
  const sentence = `${labeller} misreads the ${attribute} of faces the reviewers call ${w.cls} ${f(ratio)}× as often as of ${b.cls} ones [${f(lo)}, ${f(hi)}]${separable ? "" : " — not separable at 95 %"} (${w.errors} of ${w.n} against ${b.errors} of ${b.n})`;
  return { worst: w.cls, best: b.cls, ratio, lo, hi, separable, sentence };
}

// The arithmetic every bootstrap here shares: percentiles, each score's range, and the bias-corrected estimate with
// its basic interval (docs/scoring.md, Intervals: why basic, not percentile).
import type { BootstrapMetric, Interval, IntervalFlag } from "./design";

export function percentile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Every score lies in [0, 1] except d, which is a distance in the unit square. */
export const RANGE: Record<BootstrapMetric, [number, number]> = { sFact: [0, 1], sE: [0, 1], sKLD: [0, 1], sFair: [0, 1], distance: [-Math.SQRT2, Math.SQRT2] };
const clamp = (x: number, [lo, hi]: [number, number]) => Math.min(hi, Math.max(lo, x));

/** Bias-corrected estimate and basic interval from the replicates of each score. */
export function biasCorrectedInterval(point: number, replicates: number[], level: number, range: [number, number], flags: IntervalFlag[]): Interval {
  const v = replicates.sort((x, y) => x - y);
  const mean = v.reduce((a, x) => a + x, 0) / v.length;
  const se = Math.sqrt(v.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, v.length - 1));
  const estimate = clamp(2 * point - mean, range);
  const lo = clamp(2 * point - percentile(v, 1 - (1 - level) / 2), range);
  const hi = clamp(2 * point - percentile(v, (1 - level) / 2), range);
  return { estimate, lo: Math.min(lo, estimate), hi: Math.max(hi, estimate), se, resamples: v.length, flags };
}

/** Wilson's score interval for a proportion: good coverage down to small n and rates near 0 or 1. */
export function wilson(x: number, n: number, z = 1.959963984540054): { lo: number; hi: number } {
  if (n === 0) return { lo: 0, hi: 1 };
  const p = x / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

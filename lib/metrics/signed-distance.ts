// d near the curve, and d of a corrected point (lib/metrics/cluster-bootstrap.ts reads both): the signed distance that
// a bootstrap of d runs on, folding its interval back, and d's estimate and interval from the bias-corrected
// (S_fact, S_E).
import { distanceToBound, upperBound } from "./bound";
import { distanceToBoundRelease } from "./bounded-distance";
import { RANGE } from "./interval-math";
import { standardInterval } from "./jackknife";
import type { Interval } from "./design";
import { distanceOf, type ScoreMethod } from "./scores";

/** The scores d is read from (cluster-bootstrap.ts MetricValues, structurally). */
interface Point {
  sFact: number | null;
  sE: number | null;
  distance: number | null;
}

/**
 * d is a distance, folded at the curve: a point just above g_k and one just below have the same d, so near the
 * curve its bootstrap distribution piles up against 0 and no interval built on it covers. The bootstrap works on
 * the signed distance (positive above the curve, where S_E exceeds g_k(S_fact)), which is smooth across the
 * curve, and the interval is folded back afterwards (foldDistance).
 */
export function withSignedDistance<V extends Point>(v: V, k: number): V {
  if (v.distance === null || v.sFact === null || v.sE === null) return v;
  return { ...v, distance: v.sE >= upperBound(k)(v.sFact) ? v.distance : -v.distance };
}

/** The signed distance's interval as an interval of d = |signed distance|. */
export function foldDistance(i: Interval): Interval {
  const estimate = Math.abs(i.estimate);
  if (i.lo >= 0) return { ...i, estimate };
  if (i.hi <= 0) return { ...i, estimate, lo: -i.hi, hi: -i.lo };
  return { ...i, estimate, lo: 0, hi: Math.max(-i.lo, i.hi) };
}

/**
 * d read from the corrected (S_fact, S_E) rather than corrected itself. d is a distance to a curved bound, so the
 * plug-in's bias does not carry over to d linearly: with few, strongly differing scenarios per cell (race S_E's
 * plug-in 0.80 against a population 0.93), correcting d's own bootstrap bias left it 0.026 too far from the curve and
 * its population intervals covered 78 % (issue #56; bench:stats "strong scenario effects"). Here the estimate is the
 * signed distance of the bias-corrected point — the S_fact and S_E the tables show, so d is their distance — and the
 * interval comes from the replicates' reflections 2θ̂ − θ* of that point (the basic bootstrap's picture of the
 * estimator's error) mapped through the distance: their spread, never below d's own standard error (bootstrap and
 * jackknife), about the estimate, folded at the curve.
 */
export function distanceFromCorrected(
  own: Interval,
  plugIn: { sFact: number; sE: number },
  corrected: { sFact: Interval; sE: Interval },
  replicates: ReadonlyArray<readonly [number, number]>,
  k: number,
  opts: { level?: number; method?: ScoreMethod; df?: number | null },
): Interval {
  if (replicates.length < 2) return own;
  const dOf = (f: number, e: number) => (distanceOf(opts.method) === "bounded" ? distanceToBoundRelease : distanceToBound)(f, e, k);
  const signed = (f: number, e: number) => withSignedDistance({ sFact: f, sE: e, distance: dOf(f, e) }, k).distance as number;
  const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
  const estimate = signed(corrected.sFact.estimate, corrected.sE.estimate);
  const reflected = replicates.map(([f, e]) => signed(clamp01(2 * plugIn.sFact - f), clamp01(2 * plugIn.sE - e)));
  const mean = reflected.reduce((a, x) => a + x, 0) / reflected.length;
  const spread = Math.sqrt(reflected.reduce((a, x) => a + (x - mean) ** 2, 0) / (reflected.length - 1));
  const i = standardInterval({ ...own, estimate, se: Math.max(spread, own.se) }, null, opts.level ?? 0.95, RANGE.distance, opts.df ?? null);
  return foldDistance(i);
}

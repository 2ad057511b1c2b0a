// Krippendorff's alpha for nominal data (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"): agreement
// among any number of coders with missing readings, 1 − observed/expected disagreement from the coincidence matrix.
// Used per explanation tag (present / absent), where kappa's fixed raters do not fit a queue that deals items to
// different reviewers. Its interval resamples the units (items), seeded. Pure.
import { fastRng } from "./fast-rng";
import { percentile } from "./interval-math";

/** A unit's values, one per coder who read it (order irrelevant; coders without a reading are left out). */
export type Unit<T> = readonly T[];

export interface Alpha {
  /** null when undefined: fewer than two pairable values, or every value the same (no expected disagreement) */
  alpha: number | null;
  /** units with two or more values (the only ones that count) */
  units: number;
  /** pairable values in them */
  values: number;
}

function disagreements<T>(units: ReadonlyArray<Unit<T>>): { observed: number; expected: number; n: number; units: number } {
  // o_ck summed over units: each ordered pair of values within a unit of m values counts 1/(m − 1)
  const coincidence = new Map<T, Map<T, number>>();
  let n = 0;
  let counted = 0;
  for (const u of units) {
    const m = u.length;
    if (m < 2) continue;
    counted++;
    n += m;
    const counts = new Map<T, number>();
    for (const v of u) counts.set(v, (counts.get(v) ?? 0) + 1);
    for (const [c, nc] of counts)
      for (const [k, nk] of counts) {
        const pairs = c === k ? nc * (nc - 1) : nc * nk;
        if (!pairs) continue;
        const row = coincidence.get(c) ?? new Map<T, number>();
        row.set(k, (row.get(k) ?? 0) + pairs / (m - 1));
        coincidence.set(c, row);
      }
  }
  const marginal = new Map<T, number>();
  let diagonal = 0;
  for (const [c, row] of coincidence) {
    for (const [k, o] of row) {
      marginal.set(c, (marginal.get(c) ?? 0) + o);
      if (c === k) diagonal += o;
    }
  }
  const observed = n ? (n - diagonal) / n : 0;
  let same = 0;
  for (const nc of marginal.values()) same += nc * (nc - 1);
  const expected = n > 1 ? (n * (n - 1) - same) / (n * (n - 1)) : 0;
  return { observed, expected, n, units: counted };
}

/** Nominal alpha of units of readings. */
export function krippendorffAlpha<T>(units: ReadonlyArray<Unit<T>>): Alpha {
  const d = disagreements(units);
  return { alpha: d.n < 2 || d.expected <= 1e-12 ? null : 1 - d.observed / d.expected, units: d.units, values: d.n };
}

export interface AlphaInterval extends Alpha {
  lo: number | null;
  hi: number | null;
  level: number;
}

/**
 * Alpha with a percentile interval from resampling the units (the items reviewed are a sample; their coders stay
 * with them). Replicates where alpha is undefined are left out; no interval under 10 pairable units.
 */
export function alphaInterval<T>(units: ReadonlyArray<Unit<T>>, opts: { replicates?: number; seed?: number; level?: number } = {}): AlphaInterval {
  const level = opts.level ?? 0.95;
  const point = krippendorffAlpha(units);
  const pairable = units.filter((u) => u.length >= 2);
  if (point.alpha === null || pairable.length < 10) return { ...point, lo: null, hi: null, level };
  const rng = fastRng(opts.seed ?? 1, "krippendorff");
  const reps: number[] = [];
  const B = opts.replicates ?? 1000;
  const draw = new Array<Unit<T>>(pairable.length);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < pairable.length; i++) draw[i] = pairable[rng.below(pairable.length)];
    const a = krippendorffAlpha(draw).alpha;
    if (a !== null) reps.push(a);
  }
  reps.sort((x, y) => x - y);
  const tail = (1 - level) / 2;
  return { ...point, lo: reps.length ? percentile(reps, tail) : null, hi: reps.length ? percentile(reps, 1 - tail) : null, level };
}

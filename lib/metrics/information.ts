// Entropy and divergence in nats over a fixed class list (DESIGN.md §4).
import * as libm from "../core/libm";

export const KL_EPSILON = 1e-10;

/** Counts → probabilities. All-zero counts have no distribution. */
export function toDistribution(counts: readonly number[]): number[] | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  return counts.map((c) => c / total);
}

/** H(p) = −Σ p ln p with 0·ln 0 = 0. */
export function entropy(p: readonly number[]): number {
  let h = 0;
  for (const x of p) if (x > 0) h -= x * libm.log(x);
  return h;
}

/** H(p) / ln k, in [0, 1]. */
export function normalizedEntropy(p: readonly number[]): number {
  if (p.length < 2) throw new RangeError("normalised entropy needs at least two classes");
  return entropy(p) / libm.log(p.length);
}

/** ε-smoothed, renormalised KL(p ‖ q) in nats, as in the paper's Definition 3. */
export function smoothedKL(p: readonly number[], q: readonly number[], epsilon = KL_EPSILON): number {
  if (p.length !== q.length) throw new RangeError("distributions differ in length");
  const smooth = (d: readonly number[]) => {
    const s = d.map((x) => x + epsilon);
    const z = s.reduce((a, b) => a + b, 0);
    return s.map((x) => x / z);
  };
  const ps = smooth(p);
  const qs = smooth(q);
  let kl = 0;
  for (let i = 0; i < ps.length; i++) kl += ps[i] * libm.log(ps[i] / qs[i]);
  return kl;
}

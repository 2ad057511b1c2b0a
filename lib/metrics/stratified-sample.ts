// A review sample drawn at random within strata (e.g. model × statistic × context), sized for a stated precision, so
// the prevalences estimated from it generalise to everything it was drawn from (issue #67). Pure and seeded: the
// same strata, size and seed always give the same sample, so a sample can be re-derived instead of trusted.
import { createRng } from "../benchmark/rng";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";

export interface SampleSizing {
  /** the half-width of the 95 % interval wanted for one reporting unit's prevalence (e.g. 0.1 = ±10 points) */
  halfWidth: number;
  /** the prevalence planned for (0.5: the worst case) */
  planned?: number;
  level?: number;
}

/**
 * Items to review out of `population` for a proportion to ±halfWidth: n₀ = z²p(1−p)/h², with the finite-population
 * correction n = n₀ / (1 + (n₀ − 1)/N) — never more than the population.
 */
export function sampleSizeFor(population: number, s: SampleSizing): number {
  if (!Number.isInteger(population) || population < 0) throw new RangeError("population must be a non-negative integer");
  if (!(s.halfWidth > 0 && s.halfWidth < 1)) throw new RangeError("half-width must be between 0 and 1");
  const p = s.planned ?? 0.5;
  if (!(p > 0 && p < 1)) throw new RangeError("planned prevalence must be between 0 and 1");
  if (population === 0) return 0;
  const z = normalQuantile(1 - (1 - (s.level ?? 0.95)) / 2, 0, 1);
  const n0 = (z * z * p * (1 - p)) / (s.halfWidth * s.halfWidth);
  return Math.min(population, Math.ceil(n0 / (1 + (n0 - 1) / population)));
}

/**
 * `total` items allocated to strata in proportion to their sizes (largest remainders), each stratum given at least
 * `min` (or all it has), so every stratum is seen and carries its weight. Strata are keyed by name.
 */
export function allocate(sizes: ReadonlyMap<string, number>, total: number, min = 2): Map<string, number> {
  const keys = [...sizes.keys()].sort();
  const N = keys.reduce((a, k) => a + sizes.get(k)!, 0);
  const out = new Map<string, number>(keys.map((k) => [k, Math.min(sizes.get(k)!, min)]));
  let left = Math.max(0, Math.min(total, N) - [...out.values()].reduce((a, b) => a + b, 0));
  if (left <= 0 || N === 0) return out;
  const room = (k: string) => sizes.get(k)! - out.get(k)!;
  // proportional shares of what is left, by room, then the largest remainders
  const R = keys.reduce((a, k) => a + room(k), 0);
  const exact = keys.map((k) => ({ k, x: (left * room(k)) / R }));
  for (const e of exact) {
    const whole = Math.min(room(e.k), Math.floor(e.x));
    out.set(e.k, out.get(e.k)! + whole);
    left -= whole;
  }
  for (const e of exact.sort((a, b) => b.x - Math.floor(b.x) - (a.x - Math.floor(a.x)) || (a.k < b.k ? -1 : 1))) {
    if (left <= 0) break;
    if (room(e.k) > 0) {
      out.set(e.k, out.get(e.k)! + 1);
      left--;
    }
  }
  return out;
}

/** Draws `counts` items of each stratum by a seeded shuffle of its (sorted) ids: a simple random sample per stratum. */
export function drawStratified<T extends string | number>(
  strata: ReadonlyMap<string, readonly T[]>,
  counts: ReadonlyMap<string, number>,
  seed: number,
): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const key of [...strata.keys()].sort()) {
    const ids = [...new Set(strata.get(key))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    out.set(
      key,
      createRng(seed, `stratified|${key}`)
        .shuffle(ids)
        .slice(0, counts.get(key) ?? 0),
    );
  }
  return out;
}

/**
 * The sample for a reporting unit (e.g. one model's explanations) of strata: sized for the precision on the unit's
 * total, allocated proportionally, drawn with the seed.
 */
export function stratifiedSample<T extends string | number>(strata: ReadonlyMap<string, readonly T[]>, sizing: SampleSizing, seed: number, min = 2) {
  const sizes = new Map([...strata].map(([k, v]) => [k, new Set(v).size]));
  const population = [...sizes.values()].reduce((a, b) => a + b, 0);
  const target = sampleSizeFor(population, sizing);
  const counts = allocate(sizes, target, min);
  return { population, target, counts, sample: drawStratified(strata, counts, seed) };
}

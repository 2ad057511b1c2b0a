// Is B's average different from A's? For scores that are averages over images (a suite's per-image scores): Δ =
// B − A with the basic bootstrap interval and the p-value dual to it (paired.ts bootstrapP), following how the images
// were sampled (mean-bootstrap.ts). Under the population target two sides that drew the same entries (same content
// and seed: `paired`) are resampled with the *same* entries in every replicate, so what the entries share cancels;
// otherwise, and under the exact target (the items are fixed; only the models' sampling varies, independently), each
// side is resampled on its own.
import { biasCorrectedInterval } from "./interval-math";
import { fastRng } from "./fast-rng";
import { bootstrapP, shownSides, type Difference } from "./paired";
import { meanStrata, replicateMean, type MeanBootstrapOptions, type MeanUnit, type Psu } from "./mean-bootstrap";

const average = (units: ReadonlyArray<MeanUnit<string>>, m: string) => units.reduce((s, u) => s + u.values[m], 0) / units.length;

/** Replicates of both sides' averages drawn with the same entries (the union of both sides' entries, n − 1 of n). */
function jointReplicates(a: Map<string, Psu>, b: Map<string, Psu>, k: number, resamples: number, rng: ReturnType<typeof fastRng>) {
  const ids = [...new Set([...a.keys(), ...b.keys()])].sort();
  const out: Array<[number[], number[]]> = [];
  for (let r = 0; r < resamples; r++) {
    const sa = new Array<number>(k).fill(0);
    const sb = new Array<number>(k).fill(0);
    let na = 0;
    let nb = 0;
    for (let d = 0; d < ids.length - 1; d++) {
      const id = ids[rng.below(ids.length)];
      const x = a.get(id);
      const y = b.get(id);
      if (x) {
        for (let j = 0; j < k; j++) sa[j] += x.sum[j];
        na += x.n;
      }
      if (y) {
        for (let j = 0; j < k; j++) sb[j] += y.sum[j];
        nb += y.n;
      }
    }
    if (na > 0 && nb > 0) out.push([sa.map((v) => v / na), sb.map((v) => v / nb)]);
  }
  return out;
}

/** Per metric, Δ = mean(B) − mean(A) with its interval and p-value (null where a side has fewer than two images). */
export function pairedMeanDifferences<M extends string>(
  a: ReadonlyArray<MeanUnit<M>>,
  b: ReadonlyArray<MeanUnit<M>>,
  metrics: readonly M[],
  opts: MeanBootstrapOptions & { paired: boolean },
): Record<M, Difference | null> {
  const out = Object.fromEntries(metrics.map((m) => [m, null])) as Record<M, Difference | null>;
  if (a.length < 2 || b.length < 2 || opts.resamples <= 0) return out;
  const k = metrics.length;
  const A = meanStrata(a, metrics, opts.target);
  const B = meanStrata(b, metrics, opts.target);
  const flags = [...new Set([...A.flags, ...B.flags])];
  const joint = opts.target === "population" && opts.paired && A.clusters.size > 1 && B.clusters.size > 1;
  const reps: Array<[number[], number[]]> = [];
  if (joint) reps.push(...jointReplicates(A.clusters, B.clusters, k, opts.resamples, fastRng(opts.seed, `paired-means|joint|${opts.key}`)));
  else {
    const ra = fastRng(opts.seed, `paired-means|a|${opts.target}|${opts.key}`);
    const rb = fastRng(opts.seed, `paired-means|b|${opts.target}|${opts.key}`);
    for (let r = 0; r < opts.resamples; r++) {
      const x = replicateMean(A.strata, k, ra);
      const y = replicateMean(B.strata, k, rb);
      if (x && y) reps.push([x, y]);
    }
  }
  const [lo, hi] = opts.range ?? [-Infinity, Infinity];
  metrics.forEach((m, j) => {
    const pa = average(a, m);
    const pb = average(b, m);
    // Sums of the same values in another order differ in the last bit: identical sides must read Δ = 0 exactly.
    const tidy = (x: number) => (Math.abs(x) < 1e-12 ? 0 : x);
    const point = tidy(pb - pa);
    const diffs = reps.map(([x, y]) => tidy(y[j] - x[j]));
    const i = biasCorrectedInterval(point, [...diffs], opts.level ?? 0.95, [lo - hi, hi - lo], flags);
    // Shown beside Δ: each side's bias-corrected average, whose difference Δ is (paired.ts shownSides).
    const sides = shownSides({ a: pa, b: pb }, { a: reps.map(([x]) => x[j]), b: reps.map(([, y]) => y[j]) }, [lo, hi]);
    const delta = tidy(sides.delta);
    out[m] = { ...sides, delta, lo: Math.min(i.lo, delta), hi: Math.max(i.hi, delta), p: bootstrapP(point, diffs), resamples: diffs.length, flags };
  });
  return out;
}

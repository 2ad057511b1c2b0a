// The stratified jackknife that sets a floor under the bootstrap's standard error (lib/metrics/jackknife.ts).
import { describe, expect, it } from "vitest";
import { intervalQuantile, jackknifeSteps, jackknifeVariances, designDf, standardInterval } from "@/lib/metrics/jackknife";
import { runSteps } from "@/lib/metrics/steps";
import { designBootstrap, resamplingPlan, withSignedDistance, type DesignCell, type MetricValues } from "@/lib/metrics/cluster-bootstrap";
import { scoresFromCells } from "@/lib/metrics/scores";
import { fastRng } from "@/lib/metrics/fast-rng";

const K = 4;
const onehot = (c: number) => Array.from({ length: K }, (_, j) => (j === c ? 1 : 0));

/** Cells of 3 scenarios × n answers drawn from p (the truth, class 0, where the statistic has one). */
function cells(n: number, p: number[], seed: number, stats = 6): DesignCell[] {
  const rng = fastRng(seed, "jackknife-test");
  const draw = () => {
    const u = rng.float();
    let a = 0;
    for (let j = 0; j < K; j++) if (u < (a += p[j])) return j;
    return K - 1;
  };
  return Array.from({ length: stats }, (_, s) =>
    (["highest", "lowest"] as const).map((level) => ({
      statisticId: `s${s}`,
      level,
      truth: 0,
      truthLabel: "Asian" as const,
      clusters: Array.from({ length: 3 }, () => Array.from({ length: n }, () => onehot(draw()))),
    })),
  ).flat();
}

const totals = (cs: DesignCell[]) => {
  const counts = new Float64Array(cs.length * K);
  cs.forEach((c, i) => c.clusters.flat().forEach((u) => u.forEach((x, j) => (counts[i * K + j] += x))));
  return counts;
};
const signed = (v: MetricValues) => withSignedDistance(v, K);

/** The jackknife by brute force: every unit deleted on its own, no grouping of alike units. */
function bruteForce(cs: DesignCell[], metric: "sE" | "sFact") {
  let v = 0;
  cs.forEach((c) =>
    c.clusters.forEach((units) => {
      const n = units.length;
      const values = units.map((_, d) => {
        // The scenario's other answers weigh n/(n − 1) each (JKn).
        const w = n / (n - 1);
        const without = cs.map((x) =>
          x === c ? { ...x, clusters: x.clusters.map((u) => (u === units ? u.filter((_, i) => i !== d).map((a) => a.map((y) => y * w)) : u)) } : x,
        );
        const counts = totals(without);
        const inputs = without.map((x, i) => {
          const cc = Array.from(counts.subarray(i * K, (i + 1) * K));
          return { statisticId: x.statisticId, level: x.level, counts: cc, truth: x.truthLabel, correct: cc[0] };
        });
        return scoresFromCells(inputs, K)[metric]!;
      });
      const mean = values.reduce((a, b) => a + b, 0) / n;
      v += ((n - 1) / n) * values.reduce((a, x) => a + (x - mean) ** 2, 0);
    }),
  );
  return v;
}

describe("the stratified jackknife", () => {
  it("equals deleting every answer on its own (alike answers are grouped only to save work)", () => {
    const cs = cells(10, [0.7, 0.1, 0.1, 0.1], 1);
    const jk = jackknifeVariances(cs, K, resamplingPlan(cs, K, "exact"), totals(cs), signed);
    expect(jk.sE).toBeCloseTo(bruteForce(cs, "sE"), 12);
    expect(jk.sFact).toBeCloseTo(bruteForce(cs, "sFact"), 12);
    // Images of several faces (rows, not one-hot answers), some alike: grouped by content, the same variance.
    const rng = fastRng(9, "images");
    const images: DesignCell[] = cs.map((c) => ({
      ...c,
      clusters: c.clusters.map((units) => units.map(() => Array.from({ length: K }, () => (rng.float() < 0.3 ? 1 : 0)))),
    }));
    const jkImages = jackknifeVariances(images, K, resamplingPlan(images, K, "exact"), totals(images), signed);
    expect(jkImages.sE).toBeCloseTo(bruteForce(images, "sE"), 12);
  });

  it("agrees with the bootstrap on a score linear in the counts, and exceeds it on entropy where classes are rare", () => {
    let linear = 0;
    let entropyJ = 0;
    let entropyB = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const cs = cells(10, [0.8, 0.2 / 3, 0.2 / 3, 0.2 / 3], seed, 19);
      const jk = jackknifeVariances(cs, K, resamplingPlan(cs, K, "exact"), totals(cs), signed);
      const boot = designBootstrap(cs, K, { resamples: 2000, seed, key: "jk", target: "exact" });
      // designBootstrap reports the larger standard error; the bootstrap's own is below the jackknife's for S_E.
      linear += Math.sqrt(jk.sFact!) / boot.sFact!.se;
      entropyJ += Math.sqrt(jk.sE!);
      entropyB += boot.sE!.se;
    }
    expect(linear / 12).toBeGreaterThan(0.97);
    expect(linear / 12).toBeLessThanOrEqual(1 + 1e-9);
    expect(entropyB / entropyJ).toBeCloseTo(1, 5); // the floor took: the reported se is the jackknife's
  });

  it("has nothing to delete in a stratum of one unit, and no variance where a deletion leaves a score undefined", () => {
    const one: DesignCell[] = [{ statisticId: "s", level: "highest", truth: 0, truthLabel: "Asian", clusters: [[onehot(0)]] }];
    expect(jackknifeVariances(one, K, resamplingPlan(one, K, "exact"), totals(one), signed).sE).toBe(0);
    // An answer and a refusal: deleting the answer leaves no valid answer, so S_E is undefined there.
    const refused: DesignCell[] = [{ statisticId: "s", level: "highest", truth: 0, truthLabel: "Asian", clusters: [[onehot(0), [0, 0, 0, 0]]] }];
    expect(jackknifeVariances(refused, K, resamplingPlan(refused, K, "exact"), totals(refused), signed).sE).toBeNull();
  });
});

describe("the standard interval", () => {
  const base = { estimate: 0.5, lo: 0.47, hi: 0.52, se: 0.01, resamples: 400, flags: [] };
  it("is the estimate ± z · the larger standard error, clipped to the range, always containing the estimate", () => {
    const i = standardInterval(base, 0.02 ** 2, 0.95, [0, 1]);
    expect(i.se).toBeCloseTo(0.02, 12);
    expect(i.lo).toBeCloseTo(0.5 - 1.959963984540054 * 0.02, 9);
    expect(i.hi).toBeCloseTo(0.5 + 1.959963984540054 * 0.02, 9);
    const narrower = standardInterval(base, 0.005 ** 2, 0.95, [0, 1]);
    expect(narrower.se).toBe(0.01);
    const edge = standardInterval({ ...base, estimate: 0.995 }, null, 0.9975, [0, 1]);
    expect(edge.hi).toBe(1);
    expect(edge.lo).toBeCloseTo(0.995 - 3.0233414397391543 * 0.01, 9);
    expect(edge.lo).toBeLessThanOrEqual(edge.estimate);
  });
});

describe("the design's degrees of freedom", () => {
  it("are the units less the strata, over the strata that carry any of the variance", () => {
    // ten cells of three scenarios each: 10 × (3 − 1)
    expect(designDf(Array.from({ length: 10 }, () => ({ variance: 0.01, n: 3 })))).toBe(20);
    expect(
      designDf([
        { variance: 1, n: 3 },
        { variance: 1e-6, n: 11 },
      ]),
    ).toBe(12);
    // a cell without spread (no ground truth for S_fact, every answer alike) or of one unit adds nothing; none: unknown
    expect(
      designDf([
        { variance: 1, n: 3 },
        { variance: 0, n: 3 },
      ]),
    ).toBe(2);
    expect(
      designDf([
        { variance: 0.01, n: 1 },
        { variance: 0, n: 5 },
      ]),
    ).toBeNull();
  });

  it("widen the interval by Student's t on few, the normal's on many or unknown", () => {
    expect(intervalQuantile(0.95, null)).toBeCloseTo(1.959963984540054, 9);
    expect(intervalQuantile(0.95, 8)).toBeCloseTo(2.306004135204166, 9);
    expect(intervalQuantile(0.95, 1e6)).toBeCloseTo(1.959963984540054, 4);
    const base = { estimate: 0.5, lo: 0.47, hi: 0.52, se: 0.01, resamples: 400, flags: [] };
    expect(standardInterval(base, null, 0.95, [0, 1], 8).lo).toBeCloseTo(0.5 - 2.306004135204166 * 0.01, 9);
  });

  it("are the jackknife's: scenarios about the population (cells × (scenarios − 1) at most), answers within them exactly", () => {
    const cs = Array.from({ length: 4 }, (_, s) =>
      (["highest", "lowest"] as const).map((level) => ({
        statisticId: `s${s}`,
        level,
        truth: 0,
        truthLabel: "Asian" as const,
        clusters: [0, 1, 2].map((c) => Array.from({ length: 10 }, (_, a) => onehot((s + c + a) % 3 === 0 ? 0 : (a + c) % K))),
      })),
    ).flat();
    const jk = (target: "population" | "exact") => runSteps(jackknifeSteps(cs, K, resamplingPlan(cs, K, target), totals(cs), signed));
    const pop = jk("population").sFact!;
    expect(pop.df).not.toBeNull();
    expect(pop.df!).toBeLessThanOrEqual(8 * 2 + 1e-9);
    expect(jk("exact").sFact!.df!).toBeGreaterThan(pop.df!);
  });
});

describe("S_fact's flag", () => {
  it("is raised when a prompt has a single image: nothing to draw, the variance is missing", () => {
    const face = (c: number) => onehot(c);
    const single: DesignCell[] = Array.from({ length: 6 }, (_, s) => ({
      statisticId: `s${s}`,
      level: "highest" as const,
      truth: 0,
      truthLabel: "Asian" as const,
      clusters: [[face(s % 2)]],
    }));
    expect(designBootstrap(single, K, { resamples: 200, seed: 1, key: "one", target: "exact" }).sFact!.flags).toContain("small-cells");
    const many = cells(10, [0.7, 0.1, 0.1, 0.1], 4);
    expect(designBootstrap(many, K, { resamples: 200, seed: 1, key: "many", target: "exact" }).sFact!.flags).not.toContain("small-cells");
  });
});

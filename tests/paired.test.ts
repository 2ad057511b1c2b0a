// Differences between two models: Holm, McNemar, the bootstrap test's agreement with its interval, pairing, and a
// fast version of the false-positive / power simulation (the full one: npm run bench:stats).
import { describe, expect, it } from "vitest";
import { holm, mcnemarExact } from "@/lib/metrics/tests";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import { bootstrapP, isSeparable, normalTail, pairedDifferences, standardDifference } from "@/lib/metrics/paired";
import { biasCorrectedInterval, type DesignCell } from "@/lib/metrics/cluster-bootstrap";
import { fastRng } from "@/lib/metrics/fast-rng";
import { simulateSeparable } from "@/lib/metrics/simulate-compare";
import { rankIntervals } from "@/lib/metrics/ranks";
import { SUBJECTIVE_DESIGNS } from "@/lib/metrics/simulate";
import { comparisonSentence } from "@/lib/results/comparison-text";

describe("tests for decisions", () => {
  it("adjusts a family by Holm's step-down rule", () => {
    // Hand-computed: sorted 0.01, 0.02, 0.03, 0.5 → ×4, ×3, ×2, ×1 = 0.04, 0.06, 0.06 (monotone), 0.5.
    expect(holm([0.03, 0.5, 0.01, 0.02])).toEqual([0.06, 0.5, 0.04, 0.06]);
    expect(holm([0.9, 0.8])).toEqual([1, 1]); // 0.8 × 2 capped at 1; monotone after it
    expect(holm([0.04, 0.3])).toEqual([0.08, 0.3]);
    expect(holm([])).toEqual([]);
  });

  it("gives McNemar's exact p-values", () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(0, 10)).toBeCloseTo(2 / 1024, 12);
    // 2 · P(X ≤ 2), X ~ Bin(12, ½) = 2 · (1 + 12 + 66)/4096
    expect(mcnemarExact(10, 2)).toBeCloseTo((2 * 79) / 4096, 12);
    expect(mcnemarExact(5, 5)).toBe(1);
  });

  it("has a normal tail accurate far out", () => {
    expect(normalTail(0)).toBeCloseTo(0.5, 7);
    expect(normalTail(1.959964)).toBeCloseTo(0.025, 6);
    expect(normalTail(5) / 2.866515718791939e-7).toBeCloseTo(1, 4);
  });

  it("rejects exactly when the basic interval excludes 0", () => {
    const rng = fastRng(4, "duality");
    for (let t = 0; t < 200; t++) {
      const point = (rng.float() - 0.5) * 0.12;
      const replicates = Array.from({ length: 999 }, () => point + (rng.float() + rng.float() - 1) * 0.1);
      const p = bootstrapP(point, replicates);
      const i = biasCorrectedInterval(point, [...replicates], 0.95, [-1, 1], []);
      const tail = Math.min(replicates.filter((x) => x >= 2 * point).length, replicates.filter((x) => x <= 2 * point).length);
      if (tail < 10) continue; // the normal form's region: agrees in the limit, not draw by draw
      // The interval's bounds are interpolated quantiles: allow the one replicate of slack at the boundary.
      if (Math.abs(p - 0.05) > 0.004) expect(p < 0.05).toBe(i.lo > 0 || i.hi < 0);
    }
  });
});

describe("the standard interval of a difference", () => {
  it("rejects exactly when its interval excludes 0, and centres on the estimate it is given", () => {
    const rng = fastRng(5, "standard-duality");
    for (let t = 0; t < 300; t++) {
      const point = (rng.float() - 0.5) * 0.12;
      const level = [0.95, 0.96, 0.9975][t % 3];
      const replicates = Array.from({ length: 400 }, () => point + 0.01 + (rng.float() + rng.float() - 1) * 0.1);
      const mean = replicates.reduce((a, x) => a + x, 0) / replicates.length;
      const d = standardDifference(2 * point - mean, [...replicates], level, [-1, 1], []);
      expect(d.estimate).toBeCloseTo(2 * point - mean, 12);
      expect((d.hi - d.lo) / 2 / d.se).toBeCloseTo(normalQuantile(1 - (1 - level) / 2, 0, 1), 9);
      expect(d.p < 1 - level).toBe(d.lo > 0 || d.hi < 0);
    }
  });

  it("gives p = 1 for identical sides and p = 0 for a difference with no spread", () => {
    expect(standardDifference(0, [0, 0, 0], 0.95, [-1, 1], []).p).toBe(1);
    expect(standardDifference(0.2, [0.2, 0.2, 0.2], 0.95, [-1, 1], []).p).toBe(0);
  });
});

const cell = (statisticId: string, level: "highest" | "lowest", scenarios: number[][]): DesignCell => ({
  statisticId,
  level,
  truth: 0,
  truthLabel: "male",
  clusterKeys: scenarios.map((_, i) => String(i)),
  // scenarios[s] = [answers of class 0, answers of class 1]
  clusters: scenarios.map(([a, b]) => [...Array.from({ length: a }, () => [1, 0]), ...Array.from({ length: b }, () => [0, 1])]),
});

describe("paired differences", () => {
  const data = ["s1", "s2", "s3"].flatMap((s, i) => [
    cell(s, "highest", [
      [8 + i, 2],
      [3, 7],
      [5, 5 - i],
    ]),
    cell(s, "lowest", [
      [2, 8],
      [6 - i, 4],
      [4, 6],
    ]),
  ]);

  it("draws the same scenarios for both sides when paired: identical sides differ by exactly 0", () => {
    const paired = pairedDifferences(data, data, 2, { resamples: 300, seed: 1, key: "t", target: "population", paired: true });
    const unpaired = pairedDifferences(data, data, 2, { resamples: 300, seed: 1, key: "t", target: "population", paired: false });
    for (const m of ["sFact", "sE", "sKLD", "sFair", "distance"] as const) {
      expect(paired[m]!.lo).toBeCloseTo(0, 12);
      expect(paired[m]!.hi).toBeCloseTo(0, 12);
      expect(paired[m]!.p).toBe(1);
      expect(unpaired[m]!.hi - unpaired[m]!.lo).toBeGreaterThan(0);
    }
    expect(pairedDifferences(data, data, 2, { resamples: 300, seed: 1, key: "t", target: "population", paired: true })).toEqual(paired);
  });

  it("never calls S_fact separable when its cells hold one answer each (nothing to draw: an interval of width 0)", () => {
    // the smoke preset's objective questions: one answer per (statistic, level); the two samples differ by chance alone
    const one = (right: boolean[]) =>
      right.flatMap((r, i) => [cell(`s${i}`, "highest", [r ? [1, 0] : [0, 1]]), cell(`s${i}`, "lowest", [r ? [1, 0] : [0, 1]])]);
    const a = one([true, true, true, true, false]);
    const b = one([true, false, true, false, false]);
    const d = pairedDifferences(a, b, 2, { resamples: 200, seed: 1, key: "t", target: "exact", paired: false });
    expect(d.sFact!.hi - d.sFact!.lo).toBeCloseTo(0, 12);
    expect(d.sFact!.flags).toContain("small-cells");
    expect(isSeparable(0.0001, d.sFact!.flags)).toBe(false);
    // with answers to draw, S_fact keeps no cell-size caveat
    expect(pairedDifferences(data, data, 2, { resamples: 100, seed: 1, key: "t", target: "exact", paired: false }).sFact!.flags).not.toContain("small-cells");
  });

  it("says what it found, and never calls a too-small design separable", () => {
    const base = { metric: "sFair" as const, group: "S-B race", delta: 0.031, lo: 0.012, hi: 0.05, pAdjusted: 0.004, better: "higher" as const, flags: [] };
    expect(comparisonSentence({ ...base, a: 0.5, b: 0.531, separable: true })).toBe(
      "B is better on S_fair (S-B race): higher by 0.031 [0.012, 0.050] (A 0.500, B 0.531), adjusted p = 0.004",
    );
    // on the pages' ×100 scale, beside the Compare table's numbers (issue #66: the table read ×100, the verdict 0–1)
    expect(comparisonSentence({ ...base, a: 0.5, b: 0.531, separable: true, scale: 100 })).toBe(
      "B is better on S_fair (S-B race): higher by 3.1 [1.2, 5.0] (A 50.0, B 53.1), adjusted p = 0.004",
    );
    expect(comparisonSentence({ ...base, delta: -0.031, lo: -0.05, hi: -0.012, separable: true })).toBe(
      "B is worse on S_fair (S-B race): lower by 0.031 [0.012, 0.050], adjusted p = 0.004",
    );
    expect(comparisonSentence({ ...base, pAdjusted: 0.2, separable: false })).toBe(
      "S_fair (S-B race): not separable at 95 % — B − A = +0.031 [+0.012, +0.050], adjusted p = 0.200",
    );
    // d: which side is closer to the bound, in words; two models on the bound are not separable on d by construction.
    const d = { ...base, metric: "distance" as const, group: "O race", better: "lower" as const };
    expect(comparisonSentence({ ...d, a: 0.031, b: 0.012, delta: -0.019, lo: -0.033, hi: -0.005, separable: true })).toBe(
      "B is better on d (O race): closer to the upper bound by 0.019 [0.005, 0.033] (A 0.031, B 0.012), adjusted p = 0.004",
    );
    expect(
      comparisonSentence({ ...d, a: 0.02, b: 0.03, aPlugIn: 0.05, bPlugIn: 0.03, delta: 0.01, lo: -0.02, hi: 0.04, pAdjusted: 0.6, separable: false }),
    ).toMatch(
      /^d \(O race\): not separable at 95 % — B − A = \+0\.010 \[−0\.020, \+0\.040\] \(A 0\.020, B 0\.030\), adjusted p = 0\.600; both lie on or near the upper-bound curve/,
    );
    expect(comparisonSentence({ ...d, a: 0.2, b: 0.21, delta: 0.01, lo: -0.02, hi: 0.04, pAdjusted: 0.6, separable: false })).not.toMatch(/upper-bound curve/);
    expect(isSeparable(0.001, ["small-cells"])).toBe(false);
    expect(isSeparable(0.001, ["sparse-classes"])).toBe(true);
    expect(isSeparable(0.06, [])).toBe(false);
  });
});

describe("false positives and power by simulation (quick preset)", () => {
  it("calls two runs of one model separable on any score in at most about 5 % of pairs", () => {
    const rows = simulateSeparable({
      design: { ...SUBJECTIVE_DESIGNS.quick, k: 4 },
      a: { kind: "calibrated", accuracy: 0.8 },
      b: { kind: "calibrated", accuracy: 0.8 },
      target: "exact",
      runs: 60,
      resamples: 200,
      seed: 21,
    });
    // Nominal 5 %; with 60 pairs, 7 or more (> 11 %) would be > 2.4 sd above it.
    expect(rows.find((r) => r.metric === "any")!.separable).toBeLessThanOrEqual(6);
  });

  it("tells uniform answers from a calibrated 0.8 model every time", () => {
    const rows = simulateSeparable({
      design: { ...SUBJECTIVE_DESIGNS.quick, k: 4 },
      a: { kind: "uniform" },
      b: { kind: "calibrated", accuracy: 0.8 },
      target: "population",
      runs: 20,
      resamples: 200,
      seed: 22,
    });
    for (const m of ["sFact", "sE"] as const) expect(rows.find((r) => r.metric === m)!.separable).toBe(20);
  });
});

describe("rank intervals", () => {
  const arm = (key: string, centre: number, spread: number) => {
    const rng = fastRng(7, key);
    return { key, point: centre, replicates: Float64Array.from({ length: 400 }, () => centre + (rng.float() - 0.5) * spread) };
  };

  it("ranks arms that are far apart exactly, and calls overlapping ones ties", () => {
    const apart = rankIntervals([arm("a", 0.9, 0.05), arm("b", 0.5, 0.05), arm("c", 0.1, 0.05)], "higher");
    expect([...apart.values()].map((r) => [r.rank, r.lo, r.hi, r.tiedWith.length])).toEqual([
      [1, 1, 1, 0],
      [2, 2, 2, 0],
      [3, 3, 3, 0],
    ]);
    // d: lower is better, so the order turns round.
    expect(rankIntervals([arm("a", 0.9, 0.05), arm("b", 0.5, 0.05)], "lower").get("b")!.rank).toBe(1);
    const close = rankIntervals([arm("a", 0.52, 0.3), arm("b", 0.5, 0.3), arm("c", 0.1, 0.05)], "higher");
    expect(close.get("a")).toMatchObject({ rank: 1, lo: 1, hi: 2, tiedWith: ["b"] });
    expect(close.get("b")).toMatchObject({ rank: 2, lo: 1, hi: 2, tiedWith: ["a"] });
    expect(close.get("c")).toMatchObject({ rank: 3, lo: 3, hi: 3, tiedWith: [] });
  });
});

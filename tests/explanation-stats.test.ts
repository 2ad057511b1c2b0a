// The statistics of explanation review (issue #67): sample sizing and stratified draws, Krippendorff's alpha, the
// people's prevalence and the judge-corrected one, and a fast version of the known-truth simulation (the full one is
// bench:stats).
import { describe, expect, it } from "vitest";
import { alphaInterval, krippendorffAlpha } from "@/lib/metrics/krippendorff";
import { allocate, drawStratified, sampleSizeFor, stratifiedSample } from "@/lib/metrics/stratified-sample";
import { correctedPrevalence, sampledPrevalence } from "@/lib/metrics/prevalence";
import { simulateExplanations } from "@/lib/metrics/simulate-explanations";

describe("Krippendorff's alpha (nominal)", () => {
  it("reproduces Krippendorff's worked example (2011): 4 coders, 12 units with missing values, alpha = 0.743", () => {
    const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null];
    const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3];
    const C = [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null];
    const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null];
    const units = A.map((_, i) => [A[i], B[i], C[i], D[i]].filter((v): v is number => v !== null));
    const a = krippendorffAlpha(units);
    expect(a.alpha).toBeCloseTo(0.743, 3);
    expect(a.units).toBe(11); // the last unit has one value: not pairable
  });
  it("is 1 for perfect agreement, undefined when every value is the same, near 0 for coin flips", () => {
    expect(
      krippendorffAlpha([
        [1, 1],
        [0, 0],
        [1, 1],
      ]).alpha,
    ).toBe(1);
    expect(
      krippendorffAlpha([
        [1, 1],
        [1, 1],
      ]).alpha,
    ).toBeNull();
    let s = 7;
    const coin = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 < 0.5 ? 1 : 0);
    const units = Array.from({ length: 4000 }, () => [coin(), coin()]);
    expect(Math.abs(krippendorffAlpha(units).alpha!)).toBeLessThan(0.05);
  });
  it("gives an interval around alpha from resampling units, none on too few units", () => {
    const units = Array.from({ length: 200 }, (_, i) => (i % 10 === 0 ? [1, 0] : i % 3 === 0 ? [1, 1] : [0, 0]));
    const a = alphaInterval(units, { replicates: 300 });
    expect(a.lo!).toBeLessThan(a.alpha!);
    expect(a.hi!).toBeGreaterThan(a.alpha!);
    expect(alphaInterval(units.slice(0, 5)).lo).toBeNull();
  });
});

describe("the review sample", () => {
  it("is sized for the stated precision with the finite-population correction", () => {
    expect(sampleSizeFor(1_000_000, { halfWidth: 0.1 })).toBe(97); // 1.96² · ¼ / 0.01 = 96.04
    expect(sampleSizeFor(100, { halfWidth: 0.1 })).toBe(50);
    expect(sampleSizeFor(10, { halfWidth: 0.01 })).toBe(10);
    expect(() => sampleSizeFor(10, { halfWidth: 0 })).toThrow();
  });
  it("allocates in proportion with a floor per stratum and never more than a stratum holds", () => {
    const sizes = new Map([
      ["a", 100],
      ["b", 50],
      ["c", 1],
    ]);
    const c = allocate(sizes, 40);
    expect([...c.values()].reduce((x, y) => x + y, 0)).toBe(40);
    expect(c.get("c")).toBe(1);
    expect(c.get("a")!).toBeGreaterThan(c.get("b")!);
    expect(allocate(sizes, 1000).get("a")).toBe(100);
  });
  it("draws the same sample from the same seed whatever the order given, another from another seed", () => {
    const strata = new Map([
      ["x", [5, 3, 9, 1, 7]],
      ["y", [2, 4, 6]],
    ]);
    const counts = new Map([
      ["x", 2],
      ["y", 1],
    ]);
    const one = drawStratified(strata, counts, 1);
    const again = drawStratified(new Map([...strata].reverse().map(([k, v]) => [k, [...v].reverse()])), counts, 1);
    expect(again).toEqual(one);
    const seeds = new Set(Array.from({ length: 20 }, (_, s) => drawStratified(strata, counts, s).get("x")!.join()));
    expect(seeds.size).toBeGreaterThan(3);
    expect(stratifiedSample(strata, { halfWidth: 0.3 }, 1).target).toBeLessThanOrEqual(8);
  });
});

describe("prevalence", () => {
  it("weights strata by the explanations they stand for", () => {
    const p = sampledPrevalence([
      { population: 90, values: [1, 1, 0, 0] },
      { population: 10, values: [0, 0, 0, 0] },
    ]);
    expect(p.estimate).toBeCloseTo(0.45, 10);
    expect(p.lo!).toBeLessThan(0.45);
    expect(p.hi!).toBeGreaterThan(0.45);
    expect(sampledPrevalence([]).estimate).toBeNull();
  });
  it("an all-absent sample still has an upper end above zero", () => {
    const p = sampledPrevalence([{ population: 500, values: new Array(30).fill(0) }]);
    expect(p.estimate).toBe(0);
    expect(p.hi!).toBeGreaterThan(0.05);
  });
  it("corrects a judge's over-reading and refuses on too few checks or a judge near chance", () => {
    // truth 10 % of 1000; the judge finds 80 % of them and tags 10 % of the rest: it reads 17 %
    const tags = [...new Array(80).fill(1), ...new Array(20).fill(0), ...new Array(90).fill(1), ...new Array(810).fill(0)];
    const check = {
      counts: [
        [180, 20],
        [10, 40],
      ] as [[number, number], [number, number]],
    };
    const c = correctedPrevalence(tags, check, { replicates: 300 });
    expect(c.judged).toBeCloseTo(0.17, 10);
    expect(c.estimate!).toBeGreaterThan(0.07);
    expect(c.estimate!).toBeLessThan(0.13);
    expect(c.lo!).toBeLessThanOrEqual(c.estimate!);
    expect(
      correctedPrevalence(tags, {
        counts: [
          [5, 1],
          [1, 3],
        ],
      }).refused,
    ).toMatch(/at least 20/);
    expect(
      correctedPrevalence(tags, {
        counts: [
          [50, 50],
          [50, 50],
        ],
      }).refused,
    ).toMatch(/chance/);
  });
});

describe("known-truth simulation (fast version; bench:stats runs the full one)", () => {
  it("the people's interval and the judge-corrected one cover, and the correction removes the judge's bias", () => {
    const r = simulateExplanations({
      rate: 0.15,
      strata: 40,
      perStratum: 25,
      halfWidth: 0.1,
      reviewerMiss: 0,
      reviewerFalse: 0,
      judgeSensitivity: 0.8,
      judgeSpecificity: 0.93,
      reps: 60,
      seed: 3,
      replicates: 200,
    });
    expect(r.sampled.coverage).toBeGreaterThanOrEqual(0.85);
    expect(r.judge.coverage).toBeGreaterThanOrEqual(0.85);
    expect(Math.abs(r.judge.rawBias)).toBeGreaterThan(0.02);
    expect(Math.abs(r.judge.correctedBias)).toBeLessThan(Math.abs(r.judge.rawBias) / 3);
  });
});

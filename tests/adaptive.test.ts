// Adaptive runs' statistics (lib/metrics/sequential.ts) and the fast version of their simulation (the full one:
// npm run bench:adaptive → docs/BENCHMARKS.md).
import { describe, expect, it } from "vitest";
import {
  ADAPTIVE_ALPHA,
  decision,
  DEFAULT_SCHEDULE,
  formatUntil,
  halfwidthVerdict,
  lookLevels,
  parseUntil,
  resolveUntil,
  waveOfRank,
  waveSizes,
  type AdaptiveTarget,
} from "@/lib/metrics/sequential";
import { simulateAdaptive, simulateAdaptiveCompare } from "@/lib/metrics/simulate-adaptive";
import { adaptiveSummary, adaptiveTargetSchema, lookDecision, metricText, newAdaptiveState } from "@/lib/results/adaptive";
import { suiteOf } from "@/lib/suites";
import { simulateAdaptiveMeans, truthOfMeans } from "@/lib/metrics/simulate-adaptive-means";
import { dofairSimGroups } from "@/lib/suites/dofair/simulate";
import { METRICS as DOFAIR_METRICS } from "@/lib/suites/dofair/metrics";
import { SIM_IMAGES, T2I_DESIGNS } from "@/lib/metrics/simulate";
import { faintSimTruth, simulateFaint } from "@/lib/suites/faintbench/simulate";
import type { FaintContent } from "@/lib/suites/faintbench/content";

describe("the adaptive design", () => {
  it("spends exactly α over its looks, and each look's level follows its share", () => {
    const levels = lookLevels(DEFAULT_SCHEDULE);
    expect(levels).toHaveLength(DEFAULT_SCHEDULE.fractions.length);
    expect(levels.reduce((a, l) => a + (1 - l), 0)).toBeCloseTo(ADAPTIVE_ALPHA, 12);
    expect(DEFAULT_SCHEDULE.fractions.at(-1)).toBe(1);
    expect(levels[1]).toBeCloseTo(0.96, 12);
  });

  it("releases every stratum in every wave, growing to the whole stratum at the cap", () => {
    for (const n of [1, 2, 3, 7, 10, 100, 301]) {
      const sizes = waveSizes(n);
      expect(sizes[0]).toBeGreaterThanOrEqual(1);
      expect(sizes.at(-1)).toBe(n);
      for (let j = 1; j < sizes.length; j++) expect(sizes[j]).toBeGreaterThanOrEqual(sizes[j - 1]);
      // waveOfRank agrees with the sizes: the first sizes[j] ranks are released by look j + 1
      for (let r = 0; r < n; r++) expect(sizes[waveOfRank(r, n) - 1]).toBeGreaterThan(r);
    }
    expect(waveSizes(100)).toEqual([8, 24, 50, 100]);
    expect(waveSizes(3)).toEqual([1, 1, 2, 3]);
  });

  it("reads targets as written on the command line, and refuses what it cannot read", () => {
    const all = parseUntil("halfwidth<=0.05");
    expect(all).toEqual({ kind: "halfwidth", halfwidth: { sFact: 0.05, sE: 0.05, sKLD: 0.05, sFair: 0.05, distance: 0.05 } });
    expect(formatUntil(all)).toBe("halfwidth<=0.05");
    const some = parseUntil("sE<=0.03, d<=0.04");
    expect(some).toEqual({ kind: "halfwidth", halfwidth: { sE: 0.03, distance: 0.04 } });
    expect(parseUntil(formatUntil(some))).toEqual(some);
    expect(parseUntil("halfwidth<=0.05,sKLD<=0.08")).toMatchObject({ halfwidth: { sKLD: 0.08, sE: 0.05 } });
    const d = parseUntil("decided:sFact,sE;attribute=race;margin=0.03");
    expect(d).toEqual({ kind: "decided", metrics: ["sFact", "sE"], margin: 0.03, attribute: "race" });
    expect(parseUntil(formatUntil(d))).toEqual(d);
    for (const bad of ["halfwidth<0.05", "halfwidth<=0", "halfwidth<=0.9", "sX<=0.05", "decided:", "decided:sE;margin=2", ",", "x".repeat(300)])
      expect(() => parseUntil(bad), bad).toThrow();
    // The schema checks the shape at the boundary; the suite's vocabulary decides which scores it may name.
    expect(() => resolveUntil("nonsense")).toThrow(/cannot read/);
    expect(() => resolveUntil({ kind: "halfwidth", halfwidth: {} })).toThrow(/names no score/);
    expect(() => resolveUntil({ kind: "halfwidth", halfwidth: { ddc: 0.05 } })).toThrow(/unknown score "ddc": one of S_fact, S_E, S_KLD, S_fair, d/);
    expect(adaptiveTargetSchema.safeParse({ kind: "halfwidth", halfwidth: { "s E": 0.05 } }).success).toBe(false);
    expect(adaptiveTargetSchema.safeParse({ kind: "halfwidth", halfwidth: { sE: 0.9 } }).success).toBe(false);
    const obj = adaptiveTargetSchema.parse({ kind: "decided", metrics: ["sfact"] });
    expect(resolveUntil(obj as AdaptiveTarget)).toEqual({ kind: "decided", metrics: ["sFact"], margin: 0.05 });
    expect(() => resolveUntil({ kind: "decided", metrics: ["sE"], margin: 0.05, attribute: "age" })).toThrow(/attribute: one of gender, race/);
  });

  it("reads another suite's scores in its own vocabulary", () => {
    const dofair = suiteOf("dofair").adaptiveVocabulary!({});
    const all = resolveUntil("halfwidth<=0.05", dofair);
    expect(all).toEqual({ kind: "halfwidth", halfwidth: { ddc: 0.05, idc: 0.05, idf: 0.05, fdd: 0.05 } });
    expect(formatUntil(all, dofair)).toBe("halfwidth<=0.05");
    expect(resolveUntil("DDC<=0.03,fdd<=0.1", dofair)).toEqual({ kind: "halfwidth", halfwidth: { ddc: 0.03, fdd: 0.1 } });
    expect(() => resolveUntil("sE<=0.05", dofair)).toThrow(/unknown score "sE": one of DDC, IDC, IDF, FDD/);
    expect(() => resolveUntil("decided:ddc;attribute=race", dofair)).toThrow(/cannot read "attribute=race"/);
    const state = newAdaptiveState(resolveUntil("decided:idf", dofair), "population", dofair);
    expect(adaptiveSummary(state, { status: "running", budgetUsd: null })).toMatch(/^adaptive \(A vs B decided on IDF, equivalence ±0.05\)/);
    expect(metricText("idf", state)).toBe("IDF");
    const faint = suiteOf("faintbench").adaptiveVocabulary!({});
    expect(resolveUntil("halfwidth<=0.05", faint)).toEqual({ kind: "halfwidth", halfwidth: { implicit: 0.05, explicit: 0.05, eta: 0.05 } });
    expect(resolveUntil("η<=0.03", faint)).toEqual({ kind: "halfwidth", halfwidth: { eta: 0.03 } });
    expect(resolveUntil("decided:implicit;attribute=race", faint)).toEqual({ kind: "decided", metrics: ["implicit"], margin: 0.05, attribute: "race" });
  });

  it("judges a look by its widest interval against that score's target", () => {
    const target = parseUntil("sE<=0.05,sFact<=0.02");
    if (target.kind !== "halfwidth") throw new Error("halfwidth");
    const v = halfwidthVerdict(
      [
        { metric: "sE", group: "race", lo: 0.5, hi: 0.58 },
        { metric: "sFact", group: "race", lo: 0.7, hi: 0.73 },
        { metric: "sKLD", group: "race", lo: 0, hi: 1 },
      ],
      target,
    );
    expect(v.met).toBe(true); // S_KLD is not targeted
    expect(v.widest).toMatchObject({ metric: "sE", halfwidth: expect.closeTo(0.04, 9) });
    expect(halfwidthVerdict([{ metric: "sFact", group: "g", lo: 0.7, hi: 0.75 }], target).met).toBe(false);
    expect(decision(0.01, 0.2, 0.05)).toBe("separated");
    expect(decision(-0.2, -0.01, 0.05)).toBe("separated");
    expect(decision(-0.03, 0.04, 0.05)).toBe("equivalent");
    expect(decision(-0.03, 0.06, 0.05)).toBe("open");
    // A difference on cells too small for the bias correction decides nothing, either way.
    expect(lookDecision(0.01, 0.03, 0.05, [])).toBe("separated");
    expect(lookDecision(0.01, 0.03, 0.05, ["small-cells"])).toBe("open");
    expect(lookDecision(-0.01, 0.03, 0.05, ["small-cells"])).toBe("open");
    expect(lookDecision(-0.01, 0.03, 0.05, ["collapsed"])).toBe("equivalent");
  });
});

describe("the stopping rule by simulation (small; bench:adaptive runs ≥ 400 per configuration)", () => {
  it("stops a calibrated model's paper preset at ±0.05 within a third of it, its intervals covering the truth", () => {
    const row = simulateAdaptive({ model: { kind: "calibrated", accuracy: 0.8 }, halfwidth: 0.05, rule: "spending", runs: 24, resamples: 400, seed: 11 });
    expect(row.met).toBe(24);
    // Most runs stop at the 24 % look. Student's t on the design's 60–76 degrees of freedom (since 2026-12-07) widens
    // the looks' intervals by 2–4 %, so borderline ones take the 50 % look: 0.30 of these 24 runs (0.25 with the
    // normal quantile); bench:adaptive's 400 runs use 25.9 %, 93 % stopping at 24 %.
    expect(row.meanFraction).toBeLessThanOrEqual(1 / 3);
    const n = Object.values(row.coverage).reduce((a, c) => a + c.n, 0);
    const covered = Object.values(row.coverage).reduce((a, c) => a + c.covered, 0);
    expect(n).toBeGreaterThanOrEqual(24 * 2 * 4);
    // every reported interval is valid at ≥ 95 % under the rule; 24 runs × 2 groups × 5 scores: ≥ 92 % leaves
    // room for simulation error (the full bench measures it tightly)
    expect(covered / n).toBeGreaterThanOrEqual(0.92);
  });

  it("keeps false positives of A vs A near α where stopping at the first naive 95 % interval does not", () => {
    // Margin 0: a run stops only when the difference's interval excludes 0 (or at the cap), so every stop on a
    // separation of A from itself is a false positive.
    const same = { kind: "scenario" as const, accuracy: 0.6, concentration: 8 };
    const args = { a: same, b: same, names: ["A", "A"] as [string, string], runs: 100, resamples: 150, seed: 5, margin: 0 };
    const spending = simulateAdaptiveCompare({ ...args, rule: "spending" });
    const naive = simulateAdaptiveCompare({ ...args, rule: "naive" });
    // α = 5 %; with 100 runs 3 binomial sd reach 11.5 % (bench:adaptive measures it on 400)
    expect(spending.separated / spending.runs).toBeLessThanOrEqual(0.115);
    expect(naive.separated / naive.runs).toBeGreaterThanOrEqual(0.15);
    expect(naive.separated).toBeGreaterThan(2 * spending.separated);
  });

  it("stops a race-only DoFaiR paper preset at ±0.05 within a quarter of its entries, its intervals covering the truth", () => {
    // The suite's own image model and scoring (lib/suites/dofair/simulate.ts): 600 race entries, two variants.
    const groups = dofairSimGroups({ race: 600, gender: 0 }).filter((g) => g.entries > 0);
    const truth = truthOfMeans(groups, DOFAIR_METRICS, 1, 40_000);
    const row = simulateAdaptiveMeans({
      groups,
      metrics: DOFAIR_METRICS,
      range: [-1, 1],
      imagesPerEntry: 1,
      halfwidth: 0.05,
      rule: "spending",
      runs: 30,
      resamples: 400,
      seed: 5,
      truth,
    });
    expect(row.met).toBe(30);
    expect(row.meanFraction).toBeLessThanOrEqual(0.25);
    const n = Object.values(row.coverage).reduce((a, c) => a + c.n, 0);
    const covered = Object.values(row.coverage).reduce((a, c) => a + c.covered, 0);
    expect(n).toBe(30 * 2 * 4);
    expect(covered / n).toBeGreaterThanOrEqual(0.92);
    // The gender cells (156 entries, one image each) cannot reach ±0.05: such a run goes to its cap.
    const both = dofairSimGroups({ race: 0, gender: 156 }).filter((g) => g.entries > 0);
    const capped = simulateAdaptiveMeans({
      groups: both,
      metrics: DOFAIR_METRICS,
      range: [-1, 1],
      imagesPerEntry: 1,
      halfwidth: 0.05,
      rule: "spending",
      runs: 4,
      resamples: 200,
      seed: 5,
    });
    expect(capped.stoppedAt).toEqual([0, 0, 0, 4]);
    expect(capped.met).toBe(0);
  });

  it("stops portraits when the cap is large enough, growing by images per prompt", () => {
    const design = { ...T2I_DESIGNS.paper, unitsPerScenario: 200, images: SIM_IMAGES };
    const row = simulateAdaptive({ model: { kind: "calibrated", accuracy: 0.8 }, halfwidth: 0.05, rule: "spending", runs: 6, resamples: 300, seed: 3, design });
    expect(row.met).toBe(6);
    expect(row.meanFraction).toBeLessThan(1);
    const n = Object.values(row.coverage).reduce((a, c) => a + c.n, 0);
    expect(n).toBe(6 * 2 * 5);
  });

  it("stops FAIntbench's paper preset at ±0.05 after its first wave, every prompt scored by the suite's own functions", () => {
    const content = suiteOf("faintbench").content() as FaintContent;
    const model = { bias: 0.3, compliance: 0.8, concentration: 20 };
    const truth = faintSimTruth(content, model, 4);
    const row = simulateFaint({ content, model, imagesPerPrompt: 800, halfwidth: 0.05, rule: "spending", runs: 3, resamples: 200, seed: 9, truth });
    expect(row.stoppedAt).toEqual([3, 0, 0, 0]);
    expect(row.meanFraction).toBeCloseTo(0.08, 9);
    for (const m of ["implicit", "explicit", "eta"] as const) expect(row.coverage[m]).toEqual({ n: 3, covered: 3 });
  });
});

import { describe, expect, it } from "vitest";
import { benchmark, groundTruth, type Gender, type Level } from "@/lib/benchmark";
import { createRng } from "@/lib/benchmark/rng";
import { bootstrapScores, computeScores, designCells, type AnswerRecord } from "@/lib/metrics";

const withGender = benchmark.statistics.filter((s) => groundTruth(s, "gender", "highest") && groundTruth(s, "gender", "lowest")).slice(0, 2);

/** Each answer is the true gender with probability `accuracy`, else the other one. */
function simulate(accuracy: number, perCell: number, seed: number): Array<Pick<AnswerRecord, "statisticId" | "level" | "answer">> {
  const rng = createRng(seed, "simulate");
  return withGender.flatMap((s) =>
    (["highest", "lowest"] as Level[]).flatMap((level) => {
      const truth = groundTruth(s, "gender", level) as Gender;
      const other: Gender = truth === "male" ? "female" : "male";
      return Array.from({ length: perCell }, () => ({ statisticId: s.id, level, answer: rng.float() < accuracy ? truth : other }));
    }),
  );
}

describe("bootstrap intervals", () => {
  it("is deterministic for a seed and brackets the point estimate", () => {
    const records = simulate(0.7, 40, 1);
    const a = bootstrapScores(records, "gender", { resamples: 1000, seed: 5 });
    expect(bootstrapScores(records, "gender", { resamples: 1000, seed: 5 })).toEqual(a);
    expect(bootstrapScores(records, "gender", { resamples: 1000, seed: 6 }).sFact).not.toEqual(a.sFact);
    const point = computeScores(records, "gender");
    for (const m of ["sFact", "sE", "sKLD", "sFair", "distance"] as const) {
      const iv = a[m]!;
      expect(iv.resamples).toBe(1000);
      expect(iv.lo).toBeLessThanOrEqual(iv.hi);
      expect(iv.se).toBeGreaterThan(0);
    }
    expect(a.sFact!.lo).toBeLessThan(point.sFact!);
    expect(a.sFact!.hi).toBeGreaterThan(point.sFact!);
  });

  it("covers the true accuracy about 95 % of the time on a known distribution", () => {
    const truth = 0.7;
    let covered = 0;
    const trials = 40;
    for (let t = 0; t < trials; t++) {
      const iv = bootstrapScores(simulate(truth, 40, 100 + t), "gender", { resamples: 250, seed: t })!.sFact!;
      if (iv.lo <= truth && truth <= iv.hi) covered++;
    }
    // 95 % nominal; with 40 trials the binomial spread (sd ≈ 3.4 points) keeps it above 85 %.
    expect(covered / trials).toBeGreaterThanOrEqual(0.85);
  });

  it("has no interval for a score that is undefined, and no width without variation", () => {
    const allRefused = withGender.map((s) => ({ statisticId: s.id, level: "highest" as Level, answer: null }));
    expect(bootstrapScores(allRefused, "gender", { resamples: 50 }).sFact).toBeNull();
    const perfect = simulate(1, 20, 3);
    const iv = bootstrapScores(perfect, "gender", { resamples: 200 }).sFact!;
    expect([iv.lo, iv.hi, iv.se]).toEqual([1, 1, 0]);
    expect(() => bootstrapScores(perfect, "gender", { resamples: 0 })).toThrow(/positive/);
  });
});

describe("intervals that follow the sampling design", () => {
  const stat = withGender[0];
  /** `perScenario[s]` answers to scenario s of one cell pair, each scenario answering only its own class. */
  const byScenario = (classes: Gender[], perScenario: number) =>
    (["highest", "lowest"] as Level[]).flatMap((level) =>
      classes.flatMap((answer, s) => Array.from({ length: perScenario }, () => ({ statisticId: stat.id, level, answer, cluster: s }))),
    );

  it("always contains its own (bias-corrected) estimate", () => {
    for (let seed = 1; seed <= 12; seed++)
      for (const target of ["population", "exact"] as const) {
        const iv = bootstrapScores(simulate(0.55 + seed * 0.03, 6 + seed, seed), "gender", { resamples: 200, seed, target });
        for (const m of ["sFact", "sE", "sKLD", "sFair", "distance"] as const) {
          const i = iv[m];
          if (!i) continue;
          expect(i.lo).toBeLessThanOrEqual(i.estimate);
          expect(i.estimate).toBeLessThanOrEqual(i.hi);
        }
      }
  });

  it("corrects the plug-in entropy's downward bias instead of adding it again", () => {
    // 30 answers per cell from a fair coin: the true S_E is 1; the plug-in is low by about 1/(2n ln 2) per cell.
    const rng = createRng(3, "coin");
    const records = withGender.flatMap((s) =>
      (["highest", "lowest"] as Level[]).flatMap((level) =>
        Array.from({ length: 30 }, () => ({ statisticId: s.id, level, answer: (rng.float() < 0.5 ? "male" : "female") as Gender })),
      ),
    );
    const plugIn = computeScores(records, "gender").sE!;
    const iv = bootstrapScores(records, "gender", { resamples: 1000, seed: 2, target: "exact" }).sE!;
    expect(iv.estimate).toBeGreaterThan(plugIn);
    expect(iv.hi).toBeGreaterThan(plugIn);
  });

  it("resamples whole scenarios for the population and answers within their scenario for this exact benchmark", () => {
    // Each scenario always gets the same answer: nothing varies within a scenario, everything between them.
    const records = byScenario(["male", "male", "female"], 10);
    const exact = bootstrapScores(records, "gender", { resamples: 300, seed: 1, target: "exact" }).sE!;
    const population = bootstrapScores(records, "gender", { resamples: 300, seed: 1, target: "population" }).sE!;
    expect(exact.hi - exact.lo).toBeLessThan(1e-12);
    expect(population.hi - population.lo).toBeGreaterThan(0.1);
    expect(exact.flags).toEqual([]);
  });

  it("keeps an image's faces together and flags designs it had to simplify", () => {
    // Two images per cell, each holding two faces of one class: an image is the unit, so no resample splits a pair.
    const faces = (["highest", "lowest"] as Level[]).flatMap((level) =>
      ["img-a", "img-b", "img-c"].flatMap((unit, i) =>
        Array.from({ length: 2 }, () => ({ statisticId: stat.id, level, answer: (i === 0 ? "female" : "male") as Gender, unit })),
      ),
    );
    const cells = designCells(faces, "gender");
    expect(cells[0].clusters).toEqual([
      [
        [0, 2],
        [2, 0],
        [2, 0],
      ],
    ]);
    const iv = bootstrapScores(faces, "gender", { resamples: 50, seed: 1 }).sE!;
    // One prompt per cell: nothing to draw beyond this benchmark, and 6 faces per cell are too few to promise coverage.
    expect(iv.flags).toEqual(expect.arrayContaining(["fixed-items", "small-cells"]));
    // A scenario with a single answer cannot be resampled within itself: its cell's answers are pooled, and said so.
    const thin = byScenario(["male", "female", "male"], 1);
    expect(bootstrapScores(thin, "gender", { resamples: 50, seed: 1, target: "exact" }).sE!.flags).toContain("collapsed");
  });
});

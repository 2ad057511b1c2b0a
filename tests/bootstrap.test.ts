import { describe, expect, it } from "vitest";
import { benchmark, groundTruth, type Gender, type Level } from "@/lib/benchmark";
import { createRng } from "@/lib/benchmark/rng";
import { bootstrapScores, computeScores, type AnswerRecord } from "@/lib/metrics";

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

// The labeller's error carried into the scores: confusion estimation, the simplex-constrained correction, and a fast
// version of the coverage simulation (the full one: npm run bench:stats).
import { describe, expect, it } from "vitest";
import { confusionMatrix, correctShares, projectToSimplex, reviewCoverage } from "@/lib/metrics/misclassification";
import { SIM_CONFUSION, simulateCorrection } from "@/lib/metrics/simulate-correction";
import { correctedBootstrap } from "@/lib/metrics/corrected-bootstrap";

const M = SIM_CONFUSION.map((r) => [...r]);

describe("misclassification correction", () => {
  it("projects onto the simplex", () => {
    expect(projectToSimplex([0.2, 0.3, 0.5])).toEqual([0.2, 0.3, 0.5]);
    expect(projectToSimplex([2, 0, 0])).toEqual([1, 0, 0]);
    const p = projectToSimplex([0.9, 0.6, -0.3]);
    expect(p[0]).toBeCloseTo(0.65, 12);
    expect(p[1]).toBeCloseTo(0.35, 12);
    expect(p[2]).toBe(0);
  });

  it("recovers the true shares from the label shares a known confusion makes of them", () => {
    const p = [0.4, 0.3, 0.2, 0.1];
    const q = [0, 1, 2, 3].map((j) => p.reduce((a, pi, i) => a + pi * M[i][j], 0));
    correctShares(q, M).forEach((x, i) => expect(x).toBeCloseTo(p[i], 10));
    // Label shares no true shares could give: the closest point of the simplex, a distribution.
    const r = correctShares([0, 0, 0, 1], M);
    expect(r.every((x) => x >= 0)).toBe(true);
    expect(r.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(r[3]).toBeGreaterThan(0.9);
  });

  it("estimates the confusion with half a face per cell, and says when reviews are too few", () => {
    const m = confusionMatrix(
      [
        [0, 0],
        [0, 1],
        [1, 1],
      ],
      2,
    );
    expect(m[0]).toEqual([0.5, 0.5]); // (1 + ½, 1 + ½) / 3
    expect(m[1]).toEqual([0.5 / 2, 1.5 / 2]);
    expect(reviewCoverage([[0, 0]], 2, 1)).toEqual({ perClass: [1, 0], enough: false });
  });

  it("covers the true shares when both the faces and the reviewed faces are resampled; the label shares miss", () => {
    const rows = simulateCorrection({ trueShares: [0.4, 0.3, 0.2, 0.1], confusion: M, faces: 1520, reviewed: 200, runs: 80, resamples: 200, seed: 11 });
    // 95 % nominal; with 80 runs, 86 % is > 3 sd below it.
    for (const r of rows) expect(r.coveredCorrected / r.runs).toBeGreaterThanOrEqual(0.86);
    // White faces' share (the least misread class) is overstated by the faces misread as White: the raw share misses.
    expect(rows[3].coveredUncorrected / rows[3].runs).toBeLessThan(0.2);
  });

  it("corrects a group's scores, with intervals that contain their estimates", () => {
    // Two cells of one statistic; images with one face each: labels (2) then pairs (2 × 2).
    const img = (label: number, truth?: number) => {
      const v = [0, 0, 0, 0, 0, 0];
      v[label] = 1;
      if (truth !== undefined) v[2 + truth * 2 + label] = 1;
      return v;
    };
    const units = (a: number, b: number) => [
      ...Array.from({ length: a }, (_, i) => img(0, i % 5 === 0 ? 0 : undefined)),
      ...Array.from({ length: b }, (_, i) => img(1, i % 5 === 0 ? (i % 10 === 0 ? 0 : 1) : undefined)),
    ];
    const cells = (["highest", "lowest"] as const).map((level, i) => ({
      statisticId: "s",
      level,
      truth: 0,
      truthLabel: "male" as const,
      clusters: [units(30 - i * 10, 10 + i * 10)],
    }));
    const { point, intervals } = correctedBootstrap(cells, 2, { resamples: 200, seed: 1, key: "t", target: "exact" });
    expect(point.sFact).not.toBeNull();
    for (const m of ["sFact", "sE"] as const) {
      const i = intervals[m]!;
      expect(i.lo <= i.estimate && i.estimate <= i.hi).toBe(true);
    }
  });
});

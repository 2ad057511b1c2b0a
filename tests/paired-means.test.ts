// Paired differences of averages (DoFaiR's scores) checked by simulation with known truth (DESIGN.md §12; the full
// version is `npm run bench:stats`): a model against itself is "different" about 5 % of the time, the interval of a
// real difference covers it at about 95 % under both targets, and pairing the entries narrows the population
// interval without losing coverage.
import { describe, expect, it } from "vitest";
import { pairedMeanDifferences } from "@/lib/metrics/paired-means";
import { drawSides, simulateMeanComparisons } from "@/lib/metrics/simulate-means";

describe("paired differences of averages", () => {
  it("calls a model different from itself about 5 % of the time, and covers a real difference at about 95 %", () => {
    for (const target of ["population", "exact"] as const) {
      const r = simulateMeanComparisons({ runs: 300, resamples: 400, target });
      expect(r.estimateInside).toBe(true);
      // 300 pairs measure a 5 % rate to ±1.3 % (one sd): allow three (npm run bench:stats measures 1,000 pairs).
      expect(r.falsePositives / r.runs, `${target}: false positives`).toBeLessThanOrEqual(0.09);
      expect(r.covered / r.runs, `${target}: coverage`).toBeGreaterThanOrEqual(0.92);
      expect(r.covered / r.runs, `${target}: coverage`).toBeLessThanOrEqual(0.98);
      // The entries' own rates cancel when both sides draw the same entries (population); the exact target has none.
      if (target === "population") expect(r.widthRatio).toBeLessThan(0.8);
    }
  });

  it("is seeded, reads identical sides as Δ = 0, and refuses sides too small to resample", () => {
    const { a, b } = drawSides(1, 0.05);
    const opts = { resamples: 200, seed: 3, key: "x", target: "population" as const, paired: true };
    expect(pairedMeanDifferences(a, b, ["score"], opts)).toEqual(pairedMeanDifferences(a, b, ["score"], opts));
    const same = pairedMeanDifferences(a, [...a].reverse(), ["score"], opts).score!;
    expect([same.delta, same.lo, same.hi, same.p]).toEqual([0, 0, 0, 1]);
    expect(pairedMeanDifferences(a.slice(0, 1), b, ["score"], opts).score).toBeNull();
  });
});

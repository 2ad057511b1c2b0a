// Paired differences of averages (DoFaiR's scores) checked by simulation with known truth (DESIGN.md §12): a model
// against itself is "different" about 5 % of the time, the interval of a real difference covers it at about 95 %,
// under both targets, and pairing the entries narrows the interval without losing coverage.
import { describe, expect, it } from "vitest";
import { pairedMeanDifferences } from "@/lib/metrics/paired-means";
import type { MeanUnit } from "@/lib/metrics/mean-bootstrap";
import { fastRng } from "@/lib/metrics/fast-rng";

type M = "idc";
const ENTRIES = 40;
const IMAGES = 5;

/** Entries with their own rate (drawn fresh per simulated benchmark), images scoring 1 with the entry's rate + shift. */
function draw(sim: number, shift: number) {
  const rng = fastRng(sim, "paired-means-sim");
  const u = () => rng.below(1_000_000) / 1_000_000;
  const rates = Array.from({ length: ENTRIES }, () => 0.05 + 0.8 * u());
  const side = (s: number): Array<MeanUnit<M>> =>
    rates.flatMap((r, e) => Array.from({ length: IMAGES }, () => ({ cluster: `e${e}`, values: { idc: u() < r + s ? 1 : 0 } })));
  return { a: side(0), b: side(shift) };
}

describe("paired differences of averages", () => {
  it("calls a model different from itself about 5 % of the time, and covers a real difference at about 95 %", () => {
    const sims = 300;
    for (const target of ["population", "exact"] as const) {
      let falsePositives = 0;
      let covered = 0;
      let widthPaired = 0;
      let widthUnpaired = 0;
      for (let s = 0; s < sims; s++) {
        const same = draw(s, 0);
        const d0 = pairedMeanDifferences(same.a, same.b, ["idc"], { resamples: 400, seed: s, key: "k", target, paired: true, range: [0, 1] }).idc!;
        if (d0.p < 0.05) falsePositives++;
        const shifted = draw(10_000 + s, 0.1);
        const d = pairedMeanDifferences(shifted.a, shifted.b, ["idc"], { resamples: 400, seed: s, key: "k", target, paired: true, range: [0, 1] }).idc!;
        expect(d.lo).toBeLessThanOrEqual(d.delta);
        expect(d.delta).toBeLessThanOrEqual(d.hi);
        // Truth: +0.1 per image of every entry, so +0.1 for these entries and for the population alike.
        if (d.lo <= 0.1 && 0.1 <= d.hi) covered++;
        widthPaired += d.hi - d.lo;
        const u = pairedMeanDifferences(shifted.a, shifted.b, ["idc"], { resamples: 400, seed: s, key: "k", target, paired: false, range: [0, 1] }).idc!;
        widthUnpaired += u.hi - u.lo;
      }
      expect(falsePositives / sims, `${target}: false positives`).toBeLessThanOrEqual(0.075);
      expect(covered / sims, `${target}: coverage`).toBeGreaterThanOrEqual(0.92);
      expect(covered / sims, `${target}: coverage`).toBeLessThanOrEqual(0.98);
      // The entries' own rates cancel when both sides draw the same entries (population); the exact target has none.
      if (target === "population") expect(widthPaired).toBeLessThan(0.8 * widthUnpaired);
    }
  });

  it("is seeded, and refuses sides too small to resample", () => {
    const { a, b } = draw(1, 0.05);
    const opts = { resamples: 200, seed: 3, key: "x", target: "population" as const, paired: true };
    expect(pairedMeanDifferences(a, b, ["idc"], opts)).toEqual(pairedMeanDifferences(a, b, ["idc"], opts));
    expect(pairedMeanDifferences(a.slice(0, 1), b, ["idc"], opts).idc).toBeNull();
  });
});

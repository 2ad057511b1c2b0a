// Averages over images (DoFaiR's scores): the standard interval about the bias-corrected estimate, its standard error
// at least the stratified jackknife's (lib/metrics/mean-bootstrap.ts).
import { describe, expect, it } from "vitest";
import { clusteredMeanIntervals, meanStrata, ratioJackknife, type MeanUnit } from "../lib/metrics/mean-bootstrap";
import { intervalQuantile, designDf } from "../lib/metrics/jackknife";

const unit = (cluster: string, x: number): MeanUnit<"x"> => ({ cluster, values: { x } });

describe("ratioJackknife", () => {
  it("is the textbook variance of a mean, s² / n, with one image per entry", () => {
    const xs = [1, 2, 3, 4, 7];
    const { strata } = meanStrata(
      xs.map((x, i) => unit(`e${i}`, x)),
      ["x"],
      "population",
    );
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    const s2 = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
    expect(ratioJackknife(strata, 1)[0]).toBeCloseTo(s2 / xs.length, 12);
  });

  it("weighs entries by their images, as the average does, and a stratum of one unit adds nothing", () => {
    // Entry a: two images (sum 2), entry b: one image (sum 4), entry c: one (0). Deleting a → 4/2; b → 2/3; c → 6/3.
    const { strata } = meanStrata([unit("a", 1), unit("a", 1), unit("b", 4), unit("c", 0)], ["x"], "population");
    const without = [4 / 2, 2 / 3, 6 / 3];
    const m = without.reduce((a, x) => a + x, 0) / 3;
    expect(ratioJackknife(strata, 1)[0]).toBeCloseTo((2 / 3) * without.reduce((a, x) => a + (x - m) ** 2, 0), 12);
    expect(ratioJackknife([[{ sum: [5], n: 1 }]], 1)[0]).toBe(0);
  });
});

describe("clusteredMeanIntervals", () => {
  it("gives the standard interval, never narrower than the jackknife's", () => {
    const units = Array.from({ length: 60 }, (_, i) => unit(`e${i}`, (i * 7919) % 13 === 0 ? 1 : (i % 5) / 5));
    const iv = clusteredMeanIntervals(units, ["x"], { resamples: 400, seed: 1, key: "t", target: "population", level: 0.95 }).x!;
    const { strata } = meanStrata(units, ["x"], "population");
    const shares = [[] as Array<{ variance: number; n: number }>];
    const jkSe = Math.sqrt(ratioJackknife(strata, 1, shares)[0]);
    expect(iv.se).toBeGreaterThanOrEqual(jkSe - 1e-12);
    // Symmetric about the estimate: estimate ± t · se, t on the jackknife's degrees of freedom (60 entries, one
    // stratum: 59).
    expect(designDf(shares[0])).toBeCloseTo(59, 9);
    const t59 = intervalQuantile(0.95, 59);
    expect(t59).toBeCloseTo(2.000995378, 6);
    expect(iv.estimate - iv.lo).toBeCloseTo(t59 * iv.se, 9);
    expect(iv.hi - iv.estimate).toBeCloseTo(t59 * iv.se, 9);
  });
});

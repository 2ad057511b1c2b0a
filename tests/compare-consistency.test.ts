// A comparison agrees with itself (issue #56, item 2): the A and B it shows are the values whose difference is Δ
// (each side's bias-corrected estimate from the replicates paired into Δ's), so sign(Δ) = sign(b − a) and
// |Δ − (b − a)| < 1e-9 for every score — FACT-OR-FAIR's five (d included, near and far from the bound), averages over
// images, and FAIntbench's own — with the plug-ins alongside. Before, d's Δ was the bias-corrected difference while
// A and B were the plug-ins: "a 0.0506, b 0.0319, delta +0.0185".
import { describe, expect, it } from "vitest";
import { pairedDifferences } from "@/lib/metrics/paired";
import { pairedMeanDifferences } from "@/lib/metrics/paired-means";
import type { DesignCell } from "@/lib/metrics/cluster-bootstrap";
import { plugInScores } from "@/lib/metrics/cluster-bootstrap";
import { fastRng, type FastRng } from "@/lib/metrics/fast-rng";
import { BOOTSTRAP_METRICS } from "@/lib/metrics/design";

/** A random design of k classes: statistics × levels × scenarios × answers, each scenario leaning its own way. */
function randomCells(rng: FastRng, k: number, o: { stats: number; scenarios: number; answers: number; lean: number; truthful: number }): DesignCell[] {
  const cells: DesignCell[] = [];
  for (let s = 0; s < o.stats; s++)
    for (const level of ["highest", "lowest"] as const) {
      const truth = rng.below(k);
      const clusters = Array.from({ length: o.scenarios }, () => {
        const favoured = rng.below(k);
        return Array.from({ length: o.answers }, () => {
          const u = rng.float();
          const c = u < o.truthful ? truth : u < o.truthful + o.lean ? favoured : rng.below(k);
          return Array.from({ length: k }, (_, j) => (j === c ? 1 : 0));
        });
      });
      cells.push({ statisticId: `s${s}`, level, truth, truthLabel: null, clusterKeys: clusters.map((_, i) => String(i)), clusters });
    }
  return cells;
}

describe("comparisons whose shown values are the ones Δ is the difference of", () => {
  it("FACT-OR-FAIR's scores, d included: sign(Δ) = sign(b − a) and |Δ − (b − a)| < 1e-9 over random cell sets", () => {
    const rng = fastRng(56, "compare-consistency");
    let rows = 0;
    let shifted = 0;
    for (let t = 0; t < 60; t++) {
      const k = t % 3 === 0 ? 2 : 4;
      const shape = { stats: 2 + rng.below(4), scenarios: 1 + rng.below(3), answers: 2 + rng.below(12) };
      // Near the bound (uniform guessing, calibrated answers) and far from it (leaning answers), paired and not.
      const a = randomCells(rng, k, { ...shape, lean: rng.float() * 0.6, truthful: rng.float() * 0.5 });
      const b = t % 2 ? randomCells(rng, k, { ...shape, lean: rng.float() * 0.6, truthful: rng.float() * 0.9 }) : a.map((c) => ({ ...c }));
      for (const target of ["population", "exact"] as const) {
        const diffs = pairedDifferences(a, b, k, { resamples: 200, seed: t, key: `t${t}`, target, paired: t % 4 !== 1 });
        const pa = plugInScores(a, k);
        const pb = plugInScores(b, k);
        for (const m of BOOTSTRAP_METRICS) {
          const d = diffs[m];
          if (!d) continue;
          rows++;
          expect(Math.abs(d.delta - (d.b - d.a))).toBeLessThan(1e-9);
          expect(Math.sign(d.delta)).toBe(Math.sign(d.b - d.a));
          expect(d.lo).toBeLessThanOrEqual(d.delta);
          expect(d.hi).toBeGreaterThanOrEqual(d.delta);
          // The plug-ins come along, as the tables show them.
          expect(d.aPlugIn).toBe(pa[m]);
          expect(d.bPlugIn).toBe(pb[m]);
          if (Math.abs(d.a - d.aPlugIn) > 1e-6) shifted++;
        }
      }
    }
    expect(rows).toBeGreaterThan(300);
    // The shown values are bias-corrected (they differ from the plug-ins), yet always agree with Δ.
    expect(shifted).toBeGreaterThan(50);
  });

  it("averages over images: the same agreement", () => {
    const rng = fastRng(57, "compare-consistency-means");
    for (let t = 0; t < 40; t++) {
      const unit = (bias: number) => ({
        cluster: `e${rng.below(12)}`,
        values: { x: Math.min(1, Math.max(0, bias + (rng.float() - 0.5) * 0.6)), y: rng.float() },
      });
      const a = Array.from({ length: 8 + rng.below(30) }, () => unit(0.3));
      const b = Array.from({ length: 8 + rng.below(30) }, () => unit(0.3 + rng.float() * 0.3));
      const diffs = pairedMeanDifferences(a, b, ["x", "y"], {
        resamples: 200,
        seed: t,
        key: "k",
        target: t % 2 ? "exact" : "population",
        paired: true,
        range: [0, 1],
      });
      for (const m of ["x", "y"] as const) {
        const d = diffs[m]!;
        expect(Math.abs(d.delta - (d.b - d.a))).toBeLessThan(1e-9);
        expect(Math.sign(d.delta)).toBe(Math.sign(d.b - d.a));
        expect(d.lo).toBeLessThanOrEqual(d.delta);
        expect(d.hi).toBeGreaterThanOrEqual(d.delta);
      }
    }
  });
});

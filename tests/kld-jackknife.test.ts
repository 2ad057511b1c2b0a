// S_KLD's scenario jackknife (lib/metrics/kld-jackknife.ts): the fast in-place computation equals the definition
// (delete one scenario of one cell, S_KLD of what is left, through the app's own scoresFromCells), and the
// heterogeneity test that decides when it is used fires on scenarios that differ and not on ones that do not.
import { describe, expect, it } from "vitest";
import { jackknifedSKld, kldPairs, scenarioBiasFlag, scenarioHeterogeneity, scenariosDiffer } from "@/lib/metrics/kld-jackknife";
import { resamplingPlan, type DesignCell } from "@/lib/metrics/cluster-bootstrap";
import { scoresFromCells } from "@/lib/metrics/scores";
import { fastRng } from "@/lib/metrics/fast-rng";

const K = 4;
function cellsOf(seed: number, lean: number, answers = 12): DesignCell[] {
  const rng = fastRng(seed, "kld-jackknife");
  const cells: DesignCell[] = [];
  for (let s = 0; s < 5; s++)
    for (const level of ["highest", "lowest"] as const)
      cells.push({
        statisticId: `s${s}`,
        level,
        truth: -1,
        truthLabel: null,
        clusters: Array.from({ length: 3 }, () => {
          const favoured = rng.below(K);
          return Array.from({ length: answers }, () => {
            const c = rng.float() < lean ? favoured : rng.below(K);
            return Array.from({ length: K }, (_, j) => (j === c ? 1 : 0));
          });
        }),
      });
  return cells;
}

/** The definition: S_KLD − Σ_cells (m − 1)(mean S_KLD with one of the cell's scenarios deleted − S_KLD). */
function byDefinition(cells: DesignCell[]): number {
  const totals: number[][][] = cells.map((c) =>
    c.clusters.map((units) => units.reduce<number[]>((t, u) => t.map((x, j) => x + u[j]), new Array<number>(K).fill(0))),
  );
  const sKld = (pick: (cell: number) => ReadonlyArray<readonly number[]>) =>
    scoresFromCells(
      cells.map((c, i) => ({
        statisticId: c.statisticId,
        level: c.level,
        counts: pick(i).reduce<number[]>((t, u) => t.map((x, j) => x + u[j]), new Array<number>(K).fill(0)),
        truth: null,
        correct: 0,
      })),
      K,
    ).sKLD!;
  const whole = sKld((i) => totals[i]);
  let bias = 0;
  cells.forEach((_, h) => {
    const m = totals[h].length;
    let sum = 0;
    for (let s = 0; s < m; s++) sum += sKld((i) => (i === h ? totals[i].filter((_, j) => j !== s) : totals[i]));
    bias += (m - 1) * (sum / m - whole);
  });
  return whole - bias;
}

describe("S_KLD's jackknife over scenarios", () => {
  it("equals the definition computed through scoresFromCells", () => {
    for (const seed of [1, 2, 3, 4]) {
      const cells = cellsOf(seed, 0.7);
      const plan = resamplingPlan(cells, K, "population");
      const pairs = kldPairs(cells, plan.strata, ["s0", "s1", "s2", "s3", "s4"])!;
      expect(pairs).toHaveLength(5);
      const all = plan.strata.map((s) => Int32Array.from({ length: s.n }, (_, i) => i));
      expect(jackknifedSKld(pairs, plan.strata, all, K)).toBeCloseTo(byDefinition(cells), 10);
    }
  });

  it("is used only for the population target's scenario strata of three or more", () => {
    const cells = cellsOf(5, 0.7);
    expect(kldPairs(cells, resamplingPlan(cells, K, "exact").strata, ["s0"])).toBeNull();
    const two = cells.map((c) => ({ ...c, clusters: c.clusters.slice(0, 2) }));
    expect(kldPairs(two, resamplingPlan(two, K, "population").strata, ["s0"])).toBeNull();
  });

  it("tells scenarios that pull their answers apart from scenarios that do not", () => {
    let fired = 0;
    for (let seed = 0; seed < 40; seed++) {
      const alike = cellsOf(100 + seed, 0);
      const plan = resamplingPlan(alike, K, "population");
      if (scenariosDiffer(kldPairs(alike, plan.strata, ["s0", "s1", "s2", "s3", "s4"])!, plan.strata, K)) fired++;
    }
    // A one-sided 5 % test: alike scenarios set it off rarely (binomial: ≤ 6 of 40 with 99 % probability).
    expect(fired).toBeLessThanOrEqual(6);
    const apart = cellsOf(7, 0.8);
    const plan = resamplingPlan(apart, K, "population");
    expect(scenariosDiffer(kldPairs(apart, plan.strata, ["s0", "s1", "s2", "s3", "s4"])!, plan.strata, K)).toBe(true);
  });

  // A scenario of cellsOf favours a random class with probability `lean`: its shares are lean·e_c + (1 − lean)/K,
  // so the between-scenario variance over 1 − Σ p̄² (p̄ uniform) is exactly lean².
  it("measures how much scenarios differ: lean² for scenarios that favour a class with probability lean", () => {
    const mean = (lean: number) => {
      let sum = 0;
      for (let seed = 0; seed < 60; seed++) {
        const cells = cellsOf(300 + seed, lean, 100);
        const plan = resamplingPlan(cells, K, "population");
        sum += scenarioHeterogeneity(kldPairs(cells, plan.strata, ["s0", "s1", "s2", "s3", "s4"])!, plan.strata, K);
      }
      return sum / 60;
    };
    expect(mean(0)).toBeLessThan(0.02);
    expect(Math.abs(mean(0.3) - 0.09)).toBeLessThan(0.04);
    expect(Math.abs(mean(0.7) - 0.49)).toBeLessThan(0.08);
  });

  it("flags S_KLD's population interval where scenarios differ beyond what three per cell correct", () => {
    const flag = (lean: number, seed: number) => {
      const cells = cellsOf(seed, lean, 100);
      const plan = resamplingPlan(cells, K, "population");
      return scenarioBiasFlag(kldPairs(cells, plan.strata, ["s0", "s1", "s2", "s3", "s4"])!, plan.strata, K);
    };
    expect([1, 2, 3].map((s) => flag(0.7, s))).toEqual([true, true, true]);
    expect([1, 2, 3].map((s) => flag(0.2, s))).toEqual([false, false, false]);
  });
});

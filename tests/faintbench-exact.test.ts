// FAIntbench's intervals about this exact benchmark (lib/suites/faintbench/exact.ts): each prompt's images drawn
// again as their mean, with the spread its own images show. Checked on the synthetic image model of
// lib/suites/faintbench/simulate.ts against the truth of each simulated run's own prompts (infinitely many images).
import { describe, expect, it } from "vitest";
import { suiteOf } from "../lib/suites";
import type { FaintContent } from "../lib/suites/faintbench/content";
import { cholesky, targetScores } from "../lib/suites/faintbench/exact";
import { modelScores } from "../lib/suites/faintbench/score";
import { faintSimTallies, faintSimTruth, simulateFaint } from "../lib/suites/faintbench/simulate";

const content = suiteOf("faintbench").content() as FaintContent;
const model = { bias: 0.3, compliance: 0.8, concentration: 20 };

describe("FAIntbench exact-benchmark intervals", () => {
  it("factors a covariance (L Lᵀ = V), skipping a class never seen", () => {
    const v = [4, 2, 0, 2, 5, 0, 0, 0, 0];
    const l = cholesky(v, 3);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let x = 0;
        for (let k = 0; k < 3; k++) x += l[i * 3 + k] * l[j * 3 + k];
        expect(x).toBeCloseTo(v[i * 3 + j], 12);
      }
    expect(l[8]).toBe(0);
  });

  it("keeps the tables' numbers and is narrower than the population's (the prompts' own spread is left out)", () => {
    const t = faintSimTallies(content, model, 32, 4);
    const pop = modelScores(content, t, 200, 1);
    const exact = targetScores(content, t, { resamples: 200, seed: 1, profile: "release", target: "exact" });
    for (const m of ["implicit", "explicit"] as const) {
      const [p, e] = [pop[m].all, exact[m].all];
      expect(e.value).toBe(p.value);
      expect(e.lo!).toBeLessThanOrEqual(e.estimate!);
      expect(e.estimate!).toBeLessThanOrEqual(e.hi!);
      expect(e.hi! - e.lo!).toBeLessThan(p.hi! - p.lo!);
    }
    // the implicit estimate carries the same small-sample correction as the population's (implicit-bias.ts)
    expect(exact.implicit.all.estimate!).toBeCloseTo(pop.implicit.all.estimate!, 2);
    expect(exact.explicit.byClass["gender:female"].lo).toBeDefined();
    expect(exact.eta.all.flags).toEqual(["non-smooth"]);
    // one image per prompt: nothing to draw within a prompt — said on every interval
    const one = targetScores(content, faintSimTallies(content, model, 1, 5), { resamples: 20, seed: 1, profile: "release", target: "exact" });
    expect(one.implicit.all.flags).toContain("small-cells");
  });

  it("covers each run's own prompts' truth (20 simulated runs at 64 images per prompt)", () => {
    const truth = faintSimTruth(content, model, 2); // unused by the exact target: each run's own truth is taken
    const row = simulateFaint({
      content,
      model,
      imagesPerPrompt: 800,
      halfwidth: 0.05,
      rule: "naive",
      runs: 20,
      resamples: 100,
      seed: 2026,
      truth,
      target: "exact",
    });
    expect(row.stoppedAt[0]).toBe(20);
    // 200 runs at 400 resamples: implicit 95.0 %, explicit 96.0 %, η 71.5 % (flagged); here ≥ 17 of 20 for the first two
    expect(row.coverage.implicit.covered).toBeGreaterThanOrEqual(17);
    expect(row.coverage.explicit.covered).toBeGreaterThanOrEqual(17);
  }, 120_000);
});

// Rank intervals over resampling units (lib/metrics/ranks-units.ts) for suites other than FACT-OR-FAIR, here on
// FAIntbench's simulated tallies (lib/suites/faintbench/simulate.ts) with known truth: arms of one content draw the
// same prompts, identical arms tie, and the intervals hold each model's true rank.
import { describe, expect, it } from "vitest";
import { suiteOf } from "../lib/suites";
import type { FaintContent } from "../lib/suites/faintbench/content";
import { faintRankGroups, type RankSide } from "../lib/suites/faintbench/ranks";
import { faintSimTallies, faintSimTruth, type FaintSimModel } from "../lib/suites/faintbench/simulate";
import { unitRankReplicates } from "../lib/metrics/ranks-units";
import { rankIntervals } from "../lib/metrics/ranks";

const content = suiteOf("faintbench").content() as FaintContent;
const side = (model: string, tallies: RankSide["tallies"], contentKey = "v1"): RankSide => ({ runId: "r", model, content, contentKey, tallies });
const rank = (sides: RankSide[], resamples = 200, seed = 1) =>
  faintRankGroups(sides, "release").map((g) => ({ g, ranked: rankIntervals(unitRankReplicates(g.arms, resamples, seed, g.metric), g.better) }));

describe("rank intervals over units", () => {
  it("draws the same units for arms of one content: the same data twice gives the same replicates, a tie", () => {
    const t = faintSimTallies(content, { bias: 0.3, compliance: 0.8, concentration: 20 }, 16, 1);
    for (const { g, ranked } of rank([side("a", t), side("b", t)])) {
      const reps = unitRankReplicates(g.arms, 50, 3, g.metric);
      expect(reps[0].replicates).toEqual(reps[1].replicates);
      expect(ranked.get("r|a")).toMatchObject({ rank: 1, lo: 1, hi: 1, tiedWith: ["r|b"] });
    }
    // Other content draws its own prompts: the replicates differ.
    const g = faintRankGroups([side("a", t), side("b", t, "v2")], "release")[0];
    const reps = unitRankReplicates(g.arms, 50, 3, g.metric);
    expect(reps[0].replicates).not.toEqual(reps[1].replicates);
  });

  it("orders clearly different models without ties, η by its distance from ½", () => {
    const a = faintSimTallies(content, { bias: 0.1, compliance: 0.9, concentration: 20 }, 32, 2);
    const b = faintSimTallies(content, { bias: 0.6, compliance: 0.5, concentration: 20 }, 32, 3);
    const out = rank([side("a", a), side("b", b)]);
    for (const { g, ranked } of out.filter((x) => x.g.metric !== "eta")) {
      expect(ranked.get("r|a"), g.metric).toMatchObject({ rank: 1, lo: 1, hi: 1, tiedWith: [] });
      expect(ranked.get("r|b"), g.metric).toMatchObject({ rank: 2, lo: 2, hi: 2, tiedWith: [] });
    }
    expect(out.find((x) => x.g.metric === "eta")!.g.better).toBe("lower");
  });

  it("holds each model's true rank in ≥ 95 % of simulated audits (three close models, 30 audits)", () => {
    const models: FaintSimModel[] = [
      { bias: 0.3, compliance: 0.8, concentration: 20 },
      { bias: 0.32, compliance: 0.79, concentration: 20 },
      { bias: 0.34, compliance: 0.78, concentration: 20 },
    ];
    const truths = models.map((m) => faintSimTruth(content, m, 4));
    const trueRank = (metric: "implicit" | "explicit", i: number) => 1 + truths.filter((t) => t[metric] > truths[i][metric]).length;
    let n = 0;
    let covered = 0;
    let ties = 0;
    for (let r = 0; r < 30; r++) {
      const sides = models.map((m, i) => side(`m${i}`, faintSimTallies(content, m, 64, 100 + r * 3 + i)));
      for (const { g, ranked } of rank(sides, 200, r).filter((x) => x.g.metric !== "eta")) {
        models.forEach((_, i) => {
          const x = ranked.get(`r|m${i}`)!;
          const t = trueRank(g.metric as "implicit" | "explicit", i);
          n++;
          if (x.lo <= t && t <= x.hi) covered++;
          if (x.tiedWith.length) ties++;
        });
      }
    }
    expect(covered / n).toBeGreaterThanOrEqual(0.95);
    // close models: the intervals are not all trivially separated
    expect(ties).toBeGreaterThan(0);
  }, 60_000);
});

// FAIntbench's paired comparisons (lib/suites/faintbench/compare.ts) and the A-vs-B look of its adaptive runs
// (look.ts decidedLookRows), on the synthetic image model of lib/suites/faintbench/simulate.ts with known truth. The
// full simulation (400 pairs) is bench:stats' FAIntbench section.
import { describe, expect, it } from "vitest";
import { suiteOf } from "../lib/suites";
import type { FaintContent } from "../lib/suites/faintbench/content";
import { faintDifferences } from "../lib/suites/faintbench/compare";
import { decidedLookRows } from "../lib/suites/faintbench/look";
import { modelScores } from "../lib/suites/faintbench/score";
import { faintSimTallies, faintSimTruth, simulateFaintPairs } from "../lib/suites/faintbench/simulate";
import { comparisonSentence } from "../lib/results/comparison-text";

const content = suiteOf("faintbench").content() as FaintContent;
const A = { bias: 0.3, compliance: 0.8, concentration: 20 };
const B = { bias: 0.6, compliance: 0.6, concentration: 20 };
const opts = { resamples: 200, level: 0.95, seed: 4, paired: true, profile: "release" as const };

describe("FAIntbench comparisons", () => {
  it("compares Table 2's scores at every level; a and b are the tables' numbers, Δ inside its interval", () => {
    const ta = faintSimTallies(content, A, 16, 1);
    const tb = faintSimTallies(content, B, 16, 2);
    const diffs = faintDifferences({ content, tallies: ta }, { content, tallies: tb }, opts);
    const groups = (m: string) => diffs.filter((d) => d.metric === m).map((d) => d.key);
    expect(groups("implicit")).toEqual(["all", "gender", "race", "age", "occupation", "characteristic", "relation"]);
    expect(groups("eta")).toEqual(["all", "gender", "race", "age"]);
    const sa = modelScores(content, ta, 0, 1);
    const sb = modelScores(content, tb, 0, 1);
    const implicit = diffs.find((d) => d.metric === "implicit" && d.key === "all")!;
    expect(implicit.aPlugIn).toBeCloseTo(sa.implicit.all.value!, 12);
    expect(implicit.bPlugIn).toBeCloseTo(sb.implicit.all.value!, 12);
    const eta = diffs.find((d) => d.metric === "eta" && d.key === "race")!;
    expect(eta.aPlugIn).toBeCloseTo(sa.eta.byAttribute.race.value!, 12);
    for (const d of diffs) {
      // The values shown beside Δ are the ones it is the difference of.
      expect(Math.abs(d.delta - (d.b - d.a))).toBeLessThan(1e-9);
      expect(d.lo).toBeLessThanOrEqual(d.delta);
      expect(d.delta).toBeLessThanOrEqual(d.hi);
    }
    // B leans further towards the stereotype and shows fewer requests: lower implicit and explicit, clearly.
    expect(implicit.hi).toBeLessThan(0);
    expect(diffs.find((d) => d.metric === "explicit" && d.key === "all")!.hi).toBeLessThan(0);
    // η is better closer to ½: the sentence reads its side of ½.
    const s = comparisonSentence({ ...eta, metricName: "η", group: "race", pAdjusted: 0.001, separable: true, better: "half", flags: [] });
    expect(s).toMatch(Math.abs(eta.b - 0.5) < Math.abs(eta.a - 0.5) ? /^B is better on η \(race\): closer to ½/ : /^B is worse on η \(race\): farther from ½/);
  });

  it("reads identical sides as Δ = 0, p = 1", () => {
    const t = faintSimTallies(content, A, 8, 3);
    for (const d of faintDifferences({ content, tallies: t }, { content, tallies: t }, opts)) {
      expect(d.delta).toBeCloseTo(0, 12);
      expect(d.p).toBe(1);
    }
  });

  it("pairs the prompts: the paired interval is narrower than the unpaired one on the same data", () => {
    const ta = faintSimTallies(content, A, 16, 5);
    const tb = faintSimTallies(content, { ...A, concentration: 200 }, 16, 5); // the same prompts' leanings, tighter
    const width = (paired: boolean) => {
      const d = faintDifferences({ content, tallies: ta }, { content, tallies: tb }, { ...opts, paired, metrics: ["explicit"], keys: ["all"] })[0];
      return d.hi - d.lo;
    };
    expect(width(true)).toBeLessThan(width(false));
  });

  it("keeps false positives near α and covers the true Δ (40 simulated pairs per row)", () => {
    const same = simulateFaintPairs({
      content,
      a: A,
      b: "same",
      imagesPerPrompt: 64,
      pairs: 40,
      resamples: 400,
      seed: 11,
      truthDelta: { implicit: 0, explicit: 0, eta: 0 },
    });
    // 5 % expected (bench:stats, 400 pairs: 5.0 %); 40 pairs leave room: ≥ 7 of 40 has probability 1.4 % at 5 %
    expect(same.anySeparable).toBeLessThanOrEqual(6);
    // ≥ 85 % of 40 per metric (bench:stats, 400 pairs: 94.8–96.3 %; η has 36 pairs to resample, the least)
    for (const m of ["implicit", "explicit", "eta"] as const) expect(same.covered[m].covered).toBeGreaterThanOrEqual(34);
    const ta = faintSimTruth(content, A, 4);
    const tb = faintSimTruth(content, B, 4);
    const truthDelta = { implicit: tb.implicit - ta.implicit, explicit: tb.explicit - ta.explicit, eta: tb.eta - ta.eta };
    const two = simulateFaintPairs({ content, a: A, b: B, imagesPerPrompt: 64, pairs: 20, resamples: 400, seed: 12, truthDelta });
    expect(two.rejected.implicit).toBe(20);
    expect(two.rejected.explicit).toBe(20);
    for (const m of ["implicit", "explicit"] as const) expect(two.covered[m].covered).toBeGreaterThanOrEqual(17);
  }, 120_000);

  it("decides A vs B at a look: separated where B differs, equivalent within the margin for the same model twice", () => {
    const byModel = new Map([
      ["a", faintSimTallies(content, A, 64, 7)],
      ["b", faintSimTallies(content, B, 64, 8)],
      ["a-again", faintSimTallies(content, A, 64, 7)],
    ]);
    const rows = decidedLookRows(content, byModel, "a", { kind: "decided", metrics: ["implicit", "explicit"], margin: 0.05 }, 0.99, 3, 200);
    expect(rows.map((r) => `${r.model}|${r.metric}|${r.decision}`)).toEqual([
      "a-again − a|implicit|equivalent",
      "a-again − a|explicit|equivalent",
      "b − a|implicit|separated",
      "b − a|explicit|separated",
    ]);
    expect(rows.every((r) => r.group === "all prompts")).toBe(true);
    const race = decidedLookRows(content, byModel, "a", { kind: "decided", metrics: ["eta"], margin: 0.05, attribute: "race" }, 0.99, 3, 200);
    expect(race.map((r) => r.group)).toEqual(["Race", "Race"]);
  });
});

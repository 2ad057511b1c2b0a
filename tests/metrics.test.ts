import { describe, expect, it } from "vitest";
import { benchmark, classesOf, groundTruth, type Attribute, type Label, type Level } from "../lib/benchmark";
import { computeScores, distanceToBound, entropy, scoreGroups, smoothedKL, upperBound, type AnswerRecord } from "../lib/metrics";

type R = Pick<AnswerRecord, "statisticId" | "level" | "answer">;
const rep = (statisticId: string, level: Level, answer: Label | null, times: number): R[] =>
  Array.from({ length: times }, () => ({ statisticId, level, answer }));

describe("information measures", () => {
  it("entropy uses 0·ln 0 = 0", () => {
    expect(entropy([1, 0])).toBe(0);
    expect(entropy([0.5, 0.5])).toBeCloseTo(Math.LN2, 15);
  });
  it("KL is ε-smoothed and renormalised", () => {
    expect(smoothedKL([0.5, 0.5], [0.5, 0.5])).toBe(0);
    expect(smoothedKL([0.75, 0.25], [0.25, 0.75])).toBeCloseTo(0.5 * Math.log(3), 9);
    // Finite even when q has a zero where p has mass: ≈ ln(1/ε).
    expect(smoothedKL([1, 0], [0, 1])).toBeCloseTo(Math.log(1e10), 6);
  });
});

describe("upper bound g_k", () => {
  it("is continuous at the ends", () => {
    expect(upperBound(2)(0)).toBe(0);
    expect(upperBound(4)(0)).toBeCloseTo(Math.log(3) / Math.log(4), 15);
    expect(upperBound(4)(1)).toBe(0);
    expect(upperBound(4)(1e-12)).toBeCloseTo(Math.log(3) / Math.log(4), 9);
  });
  it("peaks at chance accuracy", () => {
    expect(upperBound(2)(0.5)).toBeCloseTo(1, 15);
    expect(upperBound(4)(0.25)).toBeCloseTo(1, 15);
  });
  it("rejects bad input", () => {
    expect(() => upperBound(1)).toThrow(RangeError);
    expect(() => upperBound(4)(1.2)).toThrow(RangeError);
  });
});

describe("distance to the bound", () => {
  it("finds the global minimum below the k = 4 curve near a = 0: (0.1, 0.2) → 0.600861", () => {
    expect(distanceToBound(0.1, 0.2, 4)).toBeCloseTo(0.600861, 6);
  });
  it("is 0 on the curve and positive off it", () => {
    for (const k of [2, 4]) for (const a of [0.05, 0.3, 0.5, 0.9, 1]) expect(distanceToBound(a, upperBound(k)(a), k)).toBeLessThan(1e-9);
    expect(distanceToBound(0.5, 0.5, 2)).toBeGreaterThan(0.1);
  });
  it("matches a brute-force global search on random points to 1e-9", () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 25; t++) {
      const k = t % 2 ? 4 : 2;
      const x = rand();
      const y = rand();
      const g = upperBound(k);
      const d2 = (a: number) => (x - a) ** 2 + (y - g(a)) ** 2;
      // dense grid, then a very fine local grid around the best cell
      let bestA = 0;
      for (let i = 0; i <= 100_000; i++) if (d2(i / 100_000) < d2(bestA)) bestA = i / 100_000;
      let best = d2(bestA);
      for (let i = -2000; i <= 2000; i++) {
        const a = Math.min(1, Math.max(0, bestA + i * 1e-8));
        best = Math.min(best, d2(a));
      }
      expect(Math.abs(distanceToBound(x, y, k) - Math.sqrt(best)), `(${x}, ${y}) k=${k}`).toBeLessThan(1e-9);
    }
  });
  it("scans only the blocks that can hold the answer, and answers exactly as a scan of the whole grid", () => {
    // One block of the whole grid is never pruned: the full scan. Points around and on the curves, corners, edges.
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const full = 4001;
    let n = 0;
    for (const k of [2, 3, 4, 6]) {
      const g = upperBound(k);
      for (let t = 0; t < 6_000; t++) {
        const x = t % 4 === 0 ? Math.round(rand() * 4000) / 4000 : rand() * 1.4 - 0.2;
        const y = t % 3 === 0 ? g(Math.min(1, Math.max(0, x))) + (rand() - 0.5) * 1e-3 : rand() * 1.4 - 0.2;
        expect(distanceToBound(x, y, k), `(${x}, ${y}) k=${k}`).toBe(distanceToBound(x, y, k, 4000, full));
        n++;
      }
      for (const [x, y] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
        [1 / k, g(1 / k)],
        [1 / k, 0],
        [0.5, 2],
        [-1, -1],
      ])
        expect(distanceToBound(x, y, k)).toBe(distanceToBound(x, y, k, 4000, full));
    }
    expect(n).toBe(24_000);
  });
});

describe("scores (paper profile)", () => {
  it("matches a hand-computed example, refusals excluded and counted", () => {
    const records = [
      ...rep("crime-rate", "highest", "male", 2),
      ...rep("crime-rate", "highest", "female", 1),
      ...rep("crime-rate", "lowest", "female", 2),
      ...rep("crime-rate", "lowest", null, 1),
    ];
    const s = computeScores(records, "gender");
    expect(s.n).toBe(6);
    expect(s.refused).toBe(1);
    expect(s.sFact).toBeCloseTo(4 / 5, 12);
    const h = -((2 / 3) * Math.log(2 / 3) + (1 / 3) * Math.log(1 / 3)) / Math.LN2; // 0.918295834…
    expect(s.sE).toBeCloseTo((h + 0) / 2, 12);
    // KL((2/3, 1/3) ‖ (0, 1)) with ε = 1e-10 added to each class and renormalised
    const eps = 1e-10;
    const p = [(2 / 3 + eps) / (1 + 2 * eps), (1 / 3 + eps) / (1 + 2 * eps)];
    const q = [eps / (1 + 2 * eps), (1 + eps) / (1 + 2 * eps)];
    const kl = p[0] * Math.log(p[0] / q[0]) + p[1] * Math.log(p[1] / q[1]);
    expect(s.sKLD).toBeCloseTo(Math.exp(-kl), 15);
    expect(s.sFair).toBeCloseTo(s.sE! + s.sKLD! - s.sE! * s.sKLD!, 15);
  });

  it("S_KLD is the mean of the exponentials, not the exponential of the mean", () => {
    const records = [
      ...rep("crime-rate", "highest", "male", 1),
      ...rep("crime-rate", "highest", "female", 1),
      ...rep("crime-rate", "lowest", "male", 1),
      ...rep("crime-rate", "lowest", "female", 1),
      ...rep("hiv-rate", "highest", "male", 3),
      ...rep("hiv-rate", "highest", "female", 1),
      ...rep("hiv-rate", "lowest", "male", 1),
      ...rep("hiv-rate", "lowest", "female", 3),
    ];
    const s = computeScores(records, "gender");
    expect(s.sKLD).toBeCloseTo((1 + 1 / Math.sqrt(3)) / 2, 9);
    expect(s.divergences).toHaveLength(2);
  });

  it("only statistics with both levels count toward S_KLD; S_E needs one valid answer", () => {
    const s = computeScores([...rep("crime-rate", "highest", "male", 3), ...rep("hiv-rate", "lowest", null, 2)], "gender");
    expect(s.sKLD).toBeNull();
    expect(s.sFair).toBeNull();
    expect(s.sE).toBe(0);
    expect(s.sFact).toBe(1);
    expect(s.refused).toBe(2);
  });

  it("all refused → every score undefined, nothing hidden", () => {
    const s = computeScores(rep("crime-rate", "highest", null, 4), "race");
    expect(s).toMatchObject({ n: 4, refused: 4, sFact: null, sE: null, sKLD: null, sFair: null, distance: null });
  });

  it("excludes a statistic without ground truth from S_fact but not from S_E", () => {
    const s = computeScores([...rep("homeownership-rate", "highest", "male", 2), ...rep("crime-rate", "highest", "female", 2)], "gender");
    expect(s.sFact).toBe(0);
    expect(s.sE).toBe(0);
  });

  const everyCell = (attribute: Attribute, fn: (classes: readonly Label[], truth: Label | null) => Array<[Label, number]>) => {
    const out: R[] = [];
    for (const st of benchmark.statistics.filter((x) => x.attributes.includes(attribute)))
      for (const level of ["highest", "lowest"] as const)
        for (const [label, times] of fn(classesOf(attribute), groundTruth(st, attribute, level))) out.push(...rep(st.id, level, label, times));
    return out;
  };

  it("uniform answers give S_E = 1 and S_KLD = 1", () => {
    for (const attribute of ["gender", "race"] as const) {
      const s = computeScores(
        everyCell(attribute, (classes) => classes.map((c) => [c, 25] as [Label, number])),
        attribute,
      );
      expect(s.sE).toBeCloseTo(1, 12);
      expect(s.sKLD).toBeCloseTo(1, 9);
      expect(s.sFair).toBeCloseTo(1, 9);
      expect(s.sFact).toBeCloseTo(1 / classesOf(attribute).length, 12);
    }
  });

  it("a model answering the truth with probability a and uniformly otherwise lies on the curve (d ≈ 0)", () => {
    for (const attribute of ["gender", "race"] as const) {
      const k = classesOf(attribute).length;
      for (const a of [0.3, 0.55, 0.7, 0.9, 1]) {
        const total = 1000;
        const other = Math.round((total * (1 - a)) / (k - 1));
        const hit = total - other * (k - 1);
        const s = computeScores(
          everyCell(attribute, (classes, truth) => classes.map((c) => [c, c === truth ? hit : other] as [Label, number])),
          attribute,
        );
        expect(s.sFact).toBeCloseTo(hit / total, 12);
        expect(s.sE).toBeCloseTo(upperBound(k)(hit / total), 12);
        expect(s.distance!).toBeLessThan(1e-9);
      }
    }
  });
});

describe("grouping", () => {
  const base = { modality: "llm" as const, level: "highest" as const, statisticId: "crime-rate" };
  it("scores each (model, modality, test, context, attribute) separately in a stable order", () => {
    const records: AnswerRecord[] = [
      { ...base, model: "b", test: "subjective", context: "ingroup", attribute: "race", answer: "Asian" },
      { ...base, model: "a", test: "subjective", context: "baseline", attribute: "gender", answer: null },
      { ...base, model: "a", test: "objective", context: null, attribute: "race", answer: "Black" },
      { ...base, model: "a", test: "objective", context: null, attribute: "gender", answer: "male" },
      { ...base, model: "a", modality: "t2i", test: "objective", context: null, attribute: "gender", answer: "female" },
    ];
    const out = scoreGroups(records);
    expect(out.map((g) => [g.model, g.modality, g.test, g.context, g.attribute])).toEqual([
      ["a", "llm", "objective", null, "gender"],
      ["a", "llm", "objective", null, "race"],
      ["a", "llm", "subjective", "baseline", "gender"],
      ["a", "t2i", "objective", null, "gender"],
      ["b", "llm", "subjective", "ingroup", "race"],
    ]);
    expect(out[0]).toMatchObject({ n: 1, refused: 0, sFact: 1, sE: 0 });
    expect(out[2]).toMatchObject({ n: 1, refused: 1, sFact: null });
    expect(out[3]).toMatchObject({ sFact: 0 });
    expect(Object.keys(out[0])).toEqual(["model", "modality", "test", "context", "attribute", "n", "refused", "sFact", "sE", "sKLD", "sFair", "distance"]);
  });
});

describe("d as the released scripts compute it (bounded Brent)", () => {
  it("finds the minimum of a smooth function to xatol, and a local one on the k = 4 bound where the global is elsewhere", async () => {
    const { brentBounded, distanceToBoundRelease } = await import("../lib/metrics/bounded-distance");
    const { distanceToBound } = await import("../lib/metrics/bound");
    expect(brentBounded((x) => (x - 0.3) ** 2, 0, 1)).toBeCloseTo(0.3, 5);
    expect(brentBounded((x) => Math.cos(x), 0, 4)).toBeCloseTo(Math.PI, 4);
    // Midjourney race, objective (Table 5: S_fact 25.36, S_E 55.53, printed d 41.97): the global minimum is 34.72.
    expect((distanceToBoundRelease(0.2536, 0.5553, 4) * 100).toFixed(2)).toBe("41.97");
    expect((distanceToBound(0.2536, 0.5553, 4) * 100).toFixed(2)).toBe("34.72");
    // Gender (k = 2, convex): both agree.
    expect(distanceToBoundRelease(0.5, 0.6, 2)).toBeCloseTo(distanceToBound(0.5, 0.6, 2), 6);
  });
});

describe("scoring profiles for d", () => {
  // One race statistic, truth White at both levels: S_fact = 2/8 = 0.25, S_E = (H(¼,¾) + H(¼,½,¼)) / 2 / ln 4 ≈ 0.578 —
  // near Midjourney's race point, where the released scripts' bounded search stops at a local minimum.
  const cell = (level: "highest" | "lowest", answers: string[], modality: "llm" | "t2i") =>
    answers.map((answer): AnswerRecord => ({
      model: "m",
      modality,
      test: "objective",
      context: null,
      statisticId: "crime-rate",
      level,
      attribute: "race",
      answer: answer as AnswerRecord["answer"],
      truth: "White",
    }));
  const records = (modality: "llm" | "t2i") => [
    ...cell("highest", ["White", "Black", "Black", "Black"], modality),
    ...cell("lowest", ["White", "Black", "Black", "Asian"], modality),
  ];

  it("release finds d as the scripts do (bounded search, text-to-image rounded as distance_calculate.py prints it), paper-text as the definition", async () => {
    const { distanceToBoundRelease } = await import("../lib/metrics/bounded-distance");
    const [release] = scoreGroups(records("t2i"), "release");
    const [text] = scoreGroups(records("t2i"), "paper-text");
    expect(release.sFact).toBe(0.25);
    expect(release.sE).toBeCloseTo(text.sE!, 4);
    expect(release.distance).toBeCloseTo(distanceToBoundRelease(release.sFact!, release.sE!, 4), 4);
    expect(text.distance).toBeCloseTo(distanceToBound(text.sFact!, text.sE!, 4), 12);
    expect(release.distance! - text.distance!).toBeGreaterThan(0.01); // the local minimum is farther than the global one
    // LLMs: subj_analysis.py's calc_min_dist is the same bounded search (on S_fact, S_E: the printed values')
    const [llmRelease] = scoreGroups(records("llm"), "release");
    const [llmText] = scoreGroups(records("llm"), "paper-text");
    expect(llmRelease.distance).toBeCloseTo(distanceToBoundRelease(0.25, llmRelease.sE!, 4), 12);
    expect(llmText.distance).toBeCloseTo(distanceToBound(0.25, llmText.sE!, 4), 12);
  });
});

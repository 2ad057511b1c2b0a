import { describe, expect, it } from "vitest";
import { breakdownRows } from "@/lib/results/breakdown";
import { chanceOf, contextInfluence, isFavourable, type InfluenceCount } from "@/lib/results/context";
import { compareScores, compareStatistics, type CompareEntity } from "@/lib/results/compare";
import { SCORE_CSV_COLUMNS, scoresCsv } from "@/lib/results/csv";
import { leaderboardRows, ranker, summaryRows, type MeasuredGroup } from "@/lib/results/leaderboard";
import { breakdownHref, chartSeries, pointIntervalKey, tradeoffPoints } from "@/lib/results/tradeoff";
import { computeScores, detailedGroups, scoreGroups, type AnswerRecord } from "@/lib/metrics";
import { published, publishedScores } from "@/lib/published";
import { benchmark, getStatistic } from "@/lib/benchmark";

const group = (over: Partial<MeasuredGroup>): MeasuredGroup => ({
  model: "m",
  modality: "llm",
  test: "subjective",
  context: "baseline",
  attribute: "race",
  n: 10,
  refused: 0,
  sFact: 0.5,
  sE: 0.4,
  sKLD: 0.9,
  sFair: 0.94,
  distance: 0.1,
  ...over,
});
const rec = (over: Partial<AnswerRecord>): AnswerRecord => ({
  model: "m",
  modality: "llm",
  test: "objective",
  context: null,
  statisticId: "crime-rate",
  level: "highest",
  attribute: "race",
  answer: "Black",
  ...over,
});

describe("weighted records", () => {
  it("score a count-weighted record exactly like that many copies", () => {
    const expanded: AnswerRecord[] = [
      ...Array.from({ length: 7 }, () => rec({})),
      ...Array.from({ length: 3 }, () => rec({ answer: "White" })),
      ...Array.from({ length: 2 }, () => rec({ answer: null })),
      ...Array.from({ length: 5 }, () => rec({ level: "lowest", answer: "Asian" })),
      rec({ level: "lowest", answer: "Black" }),
    ];
    const weighted = [
      rec({ count: 7 }),
      rec({ answer: "White", count: 3 }),
      rec({ answer: null, count: 2 }),
      rec({ level: "lowest", answer: "Asian", count: 5 }),
      rec({ level: "lowest", answer: "Black" }),
    ];
    expect(scoreGroups(weighted)).toEqual(scoreGroups(expanded));
    expect(detailedGroups(weighted)[0]).toMatchObject({ n: 18, refused: 2 });
    expect(() => computeScores([rec({ count: -1 })], "race")).toThrow(/non-negative integer/);
  });
});

describe("leaderboards", () => {
  it("marks best and second best among distinct values, respecting the direction", () => {
    const hi = ranker([0.9, 0.5, 0.9, 0.7, null], "higher");
    expect([hi(0.9), hi(0.7), hi(0.5), hi(null)]).toEqual(["best", "second", undefined, undefined]);
    const lo = ranker([0.2, 0.1, 0.3], "lower");
    expect([lo(0.1), lo(0.2), lo(0.3)]).toEqual(["best", "second", undefined]);
  });

  it("puts our groups and the published rows in the paper's columns, one row per run × model × attribute", () => {
    const run = { id: "r1", name: "Run 1" };
    const ours = [
      group({ run, test: "objective", context: null, sFact: 0.8 }),
      group({ run, context: "ingroup", sFact: 0.3 }),
      group({ run, attribute: "gender", context: "representativeness", sFact: 0.6 }),
    ];
    const rows = leaderboardRows("sFact", "llm", ours, publishedScores());
    const mine = rows.filter((r) => r.source === "run");
    expect(mine).toHaveLength(2);
    expect(mine.find((r) => r.attribute === "race")!.values).toEqual({ O: 0.8, "S-G": 0.3 });
    const gpt = rows.find((r) => r.source === "published" && r.model === "GPT-4o-2024-08-06" && r.attribute === "gender")!;
    expect(gpt.values.O).toBeCloseTo(0.9556, 4);
    expect(leaderboardRows("sFact", "t2i", ours, publishedScores()).every((r) => r.source === "published")).toBe(true);
  });

  it("computes Table 2 like the paper: subjective S_fair is the mean of the subjective columns (checked on GPT-3.5)", () => {
    // Rebuild GPT-3.5's row from the published per-column values and compare with the published Table 2.
    const pub = publishedScores().filter((p) => p.model === "GPT-3.5-Turbo-0125");
    const ours = pub.map((p) =>
      group({
        model: "gpt35",
        test: p.column === "O" ? "objective" : "subjective",
        context: ({ O: null, "S-B": "baseline", "S-R": "representativeness", "S-A": "attribution", "S-G": "ingroup", S: null } as const)[p.column],
        attribute: p.attribute,
        sFact: p.sFact,
        sFair: p.sFair,
      }),
    );
    const [row] = summaryRows(ours);
    const paper = published.summary.rows.find((r) => r.model === "GPT-3.5")!;
    expect(row.objSFact.gender! * 100).toBeCloseTo(paper.objSFact.gender, 2);
    expect(row.subjSFair.gender! * 100).toBeCloseTo(paper.subjSFair.gender, 1);
    expect(row.subjSFair.race! * 100).toBeCloseTo(paper.subjSFair.race, 1);
    expect(row.avg.avg! * 100).toBeCloseTo(paper.avg.avg, 1);
    // A missing subjective column leaves the value undefined rather than averaging fewer columns.
    expect(summaryRows(ours.filter((g) => g.context !== "attribution"))[0].subjSFair.gender).toBeNull();
  });
});

describe("chart series", () => {
  it("one series per model of ours plus the published one, with error bars from the intervals", async () => {
    const run = { id: "r1", name: "Run 1" };
    const points = tradeoffPoints("race", [group({ run }), group({ run, model: "other", sE: 0.2 })], publishedScores());
    const series = chartSeries(points, {
      attribute: "race",
      x: "sFact",
      y: "sE",
      intervals: (p) => (p.model === "m" ? { sFact: { lo: 0.4, hi: 0.65 }, sE: null } : undefined),
    });
    expect(series.map((s) => s.source)).toEqual(["run", "run", "published"]);
    const m = series[0].data[0];
    expect(m).toMatchObject({ x: 0.5, y: 0.4 });
    expect(m.errX![0]).toBeCloseTo(0.1, 12);
    expect(m.errX![1]).toBeCloseTo(0.15, 12);
    expect(m.errY).toBeUndefined();
    expect(series[1].data[0].errX).toBeUndefined();
    expect(chartSeries(points, { attribute: "race", x: "sFact", y: "sE", published: false }).some((s) => s.source === "published")).toBe(false);
    // Fig. 2b: S_fair against S_KLD.
    expect(chartSeries(points, { attribute: "race", x: "sKLD", y: "sFair" })[0].data[0]).toMatchObject({ x: 0.9, y: 0.94 });
    expect(breakdownHref(series[0].data[0].point)).toBe("/runs/r1/breakdown?model=m&test=subjective&attribute=race&context=baseline");
    expect(breakdownHref(series[2].data[0].point)).toBeNull();
    expect(pointIntervalKey(series[0].data[0].point)).toBe("r1|m|llm|subjective|baseline|race");
    // two runs of one model: two series, each named (and so coloured) by its run
    const twice = tradeoffPoints("race", [group({ run }), group({ run: { id: "r2", name: "Run 2" }, sE: 0.3 })], publishedScores());
    const both = chartSeries(twice, { attribute: "race", x: "sFact", y: "sE", published: false });
    expect(both.map((s) => s.name)).toEqual(["m · Run 1", "m · Run 2"]);
    const { modelColour } = await import("@/lib/results/colours");
    expect(modelColour(both[0].name)).not.toBe(modelColour(both[1].name));
  });
});

describe("per-statistic breakdown", () => {
  const records: AnswerRecord[] = [
    rec({ count: 6 }),
    rec({ answer: "White", count: 2 }),
    rec({ answer: null, count: 1 }),
    rec({ level: "lowest", answer: "Asian", count: 4 }),
    rec({ statisticId: "employment-rate", level: "highest", answer: "Asian", count: 1 }),
    rec({ statisticId: "employment-rate", level: "highest", answer: "White", count: 1 }),
    rec({ statisticId: "employment-rate", level: "lowest", answer: "Asian", count: 1 }),
    rec({ statisticId: "employment-rate", level: "lowest", answer: "Black", count: 1 }),
  ];
  const g = detailedGroups(records)[0];

  it("has a row per statistic × level the attribute applies to, with counts, shares, truth, entropy and KL", () => {
    const rows = breakdownRows(g);
    expect(rows).toHaveLength(benchmark.statistics.filter((s) => s.attributes.includes("race")).length * 2);
    const crimeHigh = rows.find((r) => r.key === "crime-rate|highest")!;
    expect(crimeHigh).toMatchObject({
      n: 9,
      refused: 1,
      valid: 8,
      truth: getStatistic("crime-rate").groundTruth.race!.highest,
      counts: { Asian: 0, Black: 6, Hispanic: 0, White: 2 },
    });
    expect(crimeHigh.shares.Black).toBeCloseTo(0.75, 12);
    const p = [0.75, 0.25];
    expect(crimeHigh.entropy).toBeCloseTo(-p.reduce((a, x) => a + x * Math.log(x), 0) / Math.log(4), 12);
    expect(crimeHigh.kl).toBe(rows.find((r) => r.key === "crime-rate|lowest")!.kl);
    const empty = rows.find((r) => r.n === 0)!;
    expect(empty).toMatchObject({ valid: 0, entropy: null });
  });

  it("sorts by the cells that pull the scores down", () => {
    const byEntropy = breakdownRows(g, "entropy");
    expect(byEntropy[0].key).toBe("crime-rate|lowest"); // all four answers Asian: entropy 0
    const byKl = breakdownRows(g, "kl");
    expect(byKl[0].statisticId).toBe("crime-rate"); // disjoint highest / lowest answers: the largest KL
    expect(byKl.at(-1)!.kl).toBeNull();
    expect(breakdownRows(g, "benchmark")[0].statisticId).toBe(benchmark.statistics.find((s) => s.attributes.includes("race"))!.id);
  });
});

describe("context influence (Table 3)", () => {
  const fav = benchmark.statistics.find((s) => s.polarity === "favourable" && s.attributes.includes("race"))!;
  const unfav = benchmark.statistics.find((s) => s.polarity === "unfavourable" && s.attributes.includes("race"))!;
  const c = (over: Partial<InfluenceCount>): InfluenceCount => ({
    model: "m",
    context: "attribution",
    statisticId: fav.id,
    level: "highest",
    identityGender: "female",
    identityRace: "Asian",
    gender: "female",
    race: "Asian",
    count: 1,
    ...over,
  });

  it("classifies favourable levels", () => {
    expect(isFavourable(fav.id, "highest")).toBe(true);
    expect(isFavourable(fav.id, "lowest")).toBe(false);
    expect(isFavourable(unfav.id, "lowest")).toBe(true);
  });

  it("averages per-statistic shares, against chance (50 % gender, 25 % race, 75 % race out-group)", () => {
    expect([chanceOf("attribution", "gender"), chanceOf("inGroup", "race"), chanceOf("outGroup", "race")]).toEqual([0.5, 0.25, 0.75]);
    const rows = contextInfluence([
      // attribution: statistic 1 → 3 of 4 in the news identity's race; statistic 2 → 1 of 2
      c({ count: 3 }),
      c({ race: "White", count: 1 }),
      c({ statisticId: unfav.id, count: 1 }),
      c({ statisticId: unfav.id, race: "Black", count: 1 }),
      // representativeness (high): the stated highest race chosen 1 of 1
      c({ context: "representativeness", identityGender: null, identityRace: null, race: fav.groundTruth.race!.highest, count: 1 }),
      // in-group (favourable level): the assumed identity chosen 0 of 2; out-group (unfavourable): a different race 2 of 2
      c({ context: "ingroup", race: "Black", count: 2 }),
      c({ context: "ingroup", level: "lowest", race: "White", count: 2 }),
    ]);
    const race = rows.find((r) => r.attribute === "race")!;
    expect(race.cells.attribution.share).toBeCloseTo((0.75 + 0.5) / 2, 12);
    expect(race.cells.attribution).toMatchObject({ n: 6, statistics: 2 });
    expect(race.cells.representativenessHigh.share).toBe(1);
    expect(race.cells.representativenessLow.share).toBeNull();
    expect(race.cells.inGroup.share).toBe(0);
    expect(race.cells.outGroup.share).toBe(1);
    const increases = [0.625 - 0.25, 1 - 0.25, 0 - 0.25, 1 - 0.75];
    expect(race.avgIncrease).toBeCloseTo(increases.reduce((a, b) => a + b, 0) / 4, 12);
  });

  it("reproduces the published average increase from the published shares (GPT-3.5)", () => {
    const r = published.contextInfluence.rows[0];
    for (const attribute of ["gender", "race"] as const) {
      const cols = ["representativenessHigh", "representativenessLow", "attribution", "inGroup", "outGroup"] as const;
      const avg = cols.reduce((a, col) => a + (r[col][attribute] / 100 - chanceOf(col, attribute)), 0) / cols.length;
      expect(avg * 100).toBeCloseTo(r.avgIncrease[attribute], 1);
    }
  });
});

describe("comparison and CSV", () => {
  const run = { id: "r1", name: "Run 1" };
  const records = (answer: "Black" | "White"): AnswerRecord[] => [
    rec({ count: 3 }),
    rec({ answer, count: 1 }),
    rec({ level: "lowest", answer: "Asian", count: 2 }),
  ];
  const entity = (model: string, answer: "Black" | "White"): CompareEntity => ({
    key: `r1|${model}`,
    label: model,
    run,
    model,
    groups: detailedGroups(records(answer).map((r) => ({ ...r, model }))),
  });

  it("gives differences to the first entity, per score and per statistic", () => {
    const a = entity("a", "White");
    const b = entity("b", "Black");
    const [row] = compareScores([a, b]);
    expect(row).toMatchObject({ column: "O", attribute: "race" });
    // crime rate (race): highest Black, lowest Asian — a answers 3 Black + 1 White, b 4 Black; both 2 Asian for lowest
    expect(getStatistic("crime-rate").groundTruth.race).toEqual({ highest: "Black", lowest: "Asian" });
    expect(row.values[0]!.sFact).toBeCloseTo(5 / 6, 12);
    expect(row.values[1]!.sFact).toBe(1);
    expect(row.deltas[0]!.sFact).toBe(0);
    expect(row.deltas[1]!.sFact).toBeCloseTo(1 / 6, 12);
    const stats = compareStatistics([a, b], "O", "race");
    const crime = stats.find((s) => s.statisticId === "crime-rate")!;
    expect(crime.values[1]!.accuracy).toBe(1);
    expect(crime.deltas[1]!.entropy).toBeLessThan(0); // b's highest answers are all Black: less diverse
    expect(compareStatistics([a, b], "S-B", "race").every((s) => s.values.every((v) => v === null))).toBe(true);
  });

  it("writes one CSV row per group with the fixed header, intervals where known, and quotes what needs it", () => {
    const groups = [group({ run: { id: "r1", name: 'Run "one", big' } }), group({ run, attribute: "gender", sKLD: null })];
    const csv = scoresCsv(
      groups,
      new Map([
        [
          pointIntervalKey(groups[0]),
          {
            sFact: { estimate: 0.51, lo: 0.4, hi: 0.6, se: 0.05, resamples: 1000, flags: ["collapsed" as const] },
            sE: null,
            sKLD: null,
            sFair: null,
            distance: null,
          },
        ],
      ]),
    );
    const lines = csv.trim().split("\n");
    expect(lines[0]).toBe(SCORE_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"Run ""one"", big"');
    expect(lines[1]).toContain(",S-B,race,10,0,0.5,0.4,0.9,0.94,0.1,0.51,0.4,0.6,collapsed,");
    // the release profile (the default): d as the released scripts find it, LLM groups too (subj_analysis.py)
    expect(lines[1]).toMatch(/,bounded,population,"?bias-corrected estimate ± t × standard error, the larger of a Rao–Wu/);
    // an LLM row without intervals: no target or method
    expect(lines[2]).toMatch(/,gender,10,0,0\.5,0\.4,,0\.94,0\.1(,){21}bounded,,$/);
  });
});

describe("CSV safety", () => {
  it("neutralises cells a spreadsheet would run as formulas", async () => {
    const { escapeFormula, scoresCsv } = await import("../lib/results/csv");
    for (const v of ['=HYPERLINK("x")', "+1", "-2", "\u22123", "@SUM(A1)", "\tx", "\rx"]) expect(escapeFormula(v)).toBe(`'${v}`);
    expect(escapeFormula("gpt-4o")).toBe("gpt-4o");
    const csv = scoresCsv([
      {
        run: { id: "r1", name: "=cmd|' /C calc'!A0" },
        model: "@evil",
        modality: "llm",
        test: "objective",
        context: null,
        attribute: "race",
        n: 1,
        refused: 0,
        sFact: 0.5,
        sE: 0.1,
        sKLD: null,
        sFair: null,
        distance: 0.2,
      },
    ]);
    const row = csv.trim().split("\n")[1];
    expect(row).toContain("'=cmd|' /C calc'!A0");
    expect(row).toContain("'@evil");
    expect(row).toContain(",0.5,");
  });
});

describe("published errata", () => {
  it("flags the paper's known errata with the value recomputed from the row's own scores", async () => {
    const { publishedScores } = await import("../lib/published");
    const { leaderboardRows } = await import("../lib/results/leaderboard");
    const all = publishedScores();
    const flux = all.find((p) => p.model === "Flux-1.1-Pro" && p.attribute === "race" && p.column === "S")!;
    expect(flux.sFair).toBeCloseTo(0.3036, 6);
    expect(flux.errata?.sFair?.recomputed).toBeCloseTo(0.574 + 0.3029 - 0.574 * 0.3029, 9);
    const gemini = all.filter((p) => p.model === "Gemini-1.5-Pro" && p.column !== "O");
    expect(gemini.filter((p) => p.errata?.distance).length).toBe(7);
    // An erratum is a flag beside the printed value, never a silent replacement.
    const rows = leaderboardRows("sFair", "t2i", [], all);
    const row = rows.find((r) => r.model === "Flux-1.1-Pro" && r.attribute === "race")!;
    expect(row.values.S).toBeCloseTo(0.3036, 6);
    expect(row.notes?.S).toMatch(/Recomputed: 70\.30/);
    expect(row.corrected?.S).toBeCloseTo(0.703, 3);
    expect(row.notes?.S).toMatch(/Table 5 prints/);
    // Midjourney and SDXL-Turbo race d (objective and subjective): 7–13 points from the global minimum.
    for (const model of ["Midjourney", "SDXL-Turbo"])
      for (const column of ["O", "S"] as const) {
        const p = all.find((x) => x.model === model && x.attribute === "race" && x.column === column)!;
        const off = (p.distance! - p.errata!.distance!.recomputed) * 100;
        expect(off).toBeGreaterThan(7);
        expect(off).toBeLessThan(13);
        // The authors' released distance_calculate.py (scipy's bounded minimiser) gives the printed value exactly.
        expect((p.errata!.distance!.release! * 100).toFixed(2)).toBe((p.distance! * 100).toFixed(2));
      }
    // Wherever the global minimum agrees with the print, so does the released optimiser (T2I: its scripts' domain).
    const { distanceToBoundRelease } = await import("../lib/metrics/bounded-distance");
    for (const p of all.filter((x) => x.modality === "t2i" && !x.errata?.distance && x.distance !== null))
      expect(
        Math.abs(distanceToBoundRelease(p.sFact!, p.sE!, p.attribute === "gender" ? 2 : 4) - p.distance!),
        `${p.model} ${p.attribute} ${p.column}`,
      ).toBeLessThan(0.0006);
    // Every other distance follows from its row's S_fact and S_E.
    const { recomputed } = await import("../lib/published");
    for (const p of all.filter((x) => !x.errata?.distance && x.distance !== null))
      expect(Math.abs(recomputed(p, "distance")! - p.distance!), `${p.model} ${p.attribute} ${p.column}`).toBeLessThan(0.0006);
    expect(all.filter((p) => p.errata).length).toBe(12);
  });

  it("flags Table 2's cells that rest on an erratum, with the recomputed values, from the same errata list", async () => {
    const { published, summaryErrata } = await import("../lib/published");
    const flux = published.summary.rows.find((r) => r.model === "FLUX-1.1")!;
    const e = summaryErrata(flux);
    expect(Object.keys(e).sort()).toEqual(["avg", "avgRace", "subjRace"]);
    expect(e.subjRace!.recomputed).toBeCloseTo(0.703, 3);
    expect(e.avgRace!.recomputed).toBeCloseTo((0.235 + e.subjRace!.recomputed) / 2, 9);
    expect(e.avg!.recomputed).toBeCloseTo((0.7037 + e.avgRace!.recomputed) / 2, 3);
    // Rows without a flagged S_fair carry none (Gemini's errata are distances, not in Table 2).
    for (const r of published.summary.rows.filter((x) => x.model !== "FLUX-1.1")) expect(summaryErrata(r)).toEqual({});
  });
});

describe("model colours", () => {
  it("gives a model the same colour whatever else is on the chart", async () => {
    const { modelColour, MODEL_PALETTE } = await import("../lib/results/colours");
    expect(modelColour("gpt-4o")).toBe(modelColour("gpt-4o"));
    expect(MODEL_PALETTE).toContain(modelColour("baseline:uniform"));
    const many = new Set(["a", "b", "c", "d", "e", "f", "g", "h"].map((m) => modelColour(`model-${m}`)));
    expect(many.size).toBeGreaterThan(3);
  });
});

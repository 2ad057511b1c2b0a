import { allLabelKeys, invalidLabel, keyAction, keyHint } from "../lib/review/label-set";
import { describe, expect, it } from "vitest";
import {
  agreement,
  annotatorLabel,
  cohenKappa,
  consensus,
  currentLabels,
  dealAssignment,
  goldLikeShare,
  detectorReport,
  fleissKappa,
  majorityVote,
  reviewedLabel,
  type AnnotatorLabel,
  type ReportFace,
} from "@/lib/review";

const label = (
  annotator: string,
  gender: AnnotatorLabel["gender"],
  race: AnnotatorLabel["race"],
  notAFace = false,
  age: string | null = null,
  extra: Record<string, string> = {},
): AnnotatorLabel =>
  annotatorLabel(
    annotator,
    { ...(gender ? { gender } : {}), ...(race ? { race } : {}), ...(age ? { age } : {}), ...extra },
    notAFace,
    "2026-01-01T00:00:00.000Z",
  );
const vals = (v: Record<string, string | null>) => Object.entries(v).flatMap(([attribute, value]) => (value === null ? [] : [{ attribute, value }]));

describe("majority vote", () => {
  it("needs a strict majority", () => {
    expect(majorityVote(["a", "a", "b"])).toMatchObject({ status: "decided", value: "a", votes: 3 });
    expect(majorityVote(["a", "b"])).toMatchObject({ status: "undecided", votes: 2 });
    expect(majorityVote(["a", "b", "c"])).toMatchObject({ status: "undecided" });
    expect(majorityVote(["a", "a", "b", "b"])).toMatchObject({ status: "undecided" });
    expect(majorityVote(["a"])).toMatchObject({ status: "decided", value: "a" });
    expect(majorityVote([])).toEqual({ status: "none", votes: 0 });
  });

  it("decides whether it is a face first, then each attribute among those who saw a face", () => {
    const c = consensus([label("ann", "female", "Asian"), label("bo", "female", "White"), label("cy", null, null, true)]);
    expect(c.notAFace).toBe(false);
    expect(c.gender).toMatchObject({ status: "decided", value: "female", votes: 2 });
    expect(c.race).toMatchObject({ status: "undecided", votes: 2 });
    expect(c.disagreement).toBe(true);
    const notFace = consensus([label("ann", null, null, true), label("bo", null, null, true), label("cy", "male", "Black")]);
    expect(notFace.notAFace).toBe(true);
    expect(consensus([label("ann", "male", "Black"), label("bo", "male", "Black")]).disagreement).toBe(false);
  });

  it("votes on any attribute a suite declares: a fourth (a skin-tone scale) is data, not a column", () => {
    const t = "2026-01-01T00:00:00.000Z";
    const classes = { gender: ["male", "female"], race: ["White", "Black"], skin_tone: ["I", "II", "III", "IV", "V", "VI"] };
    const cur = currentLabels(
      [
        { id: 1, faceId: 1, annotator: "ann", values: vals({ gender: "male", skin_tone: "III" }), notAFace: false, createdAt: t },
        { id: 2, faceId: 1, annotator: "bo", values: vals({ skin_tone: "III" }), notAFace: false, createdAt: t },
        { id: 3, faceId: 1, annotator: "cy", values: vals({ skin_tone: "IV", race: "Purple" }), notAFace: false, createdAt: t },
      ],
      classes,
    );
    const c = consensus(cur.get(1)!.values());
    expect(c.votes.skin_tone).toMatchObject({ status: "decided", value: "III", votes: 3 });
    expect(c.gender).toMatchObject({ status: "decided", value: "male", votes: 1 });
    expect(c.race).toEqual({ status: "none", votes: 0 }); // a class outside the suite's is not a vote
    expect(c.disagreement).toBe(true);
    // An attribute the classes do not list takes no votes.
    expect(
      consensus(
        currentLabels([{ id: 1, faceId: 1, annotator: "ann", values: vals({ skin_tone: "III" }), notAFace: false, createdAt: t }])
          .get(1)
          ?.values() ?? [],
      ).votes,
    ).toEqual({});
    expect(label("ann", null, null, false, null, { skin_tone: "II" }).values).toEqual({ skin_tone: "II" });
  });

  it("keeps the newest row per annotator, drops withdrawn labels, and breaks time ties by id", () => {
    const t = "2026-01-01T00:00:00.000Z";
    const cur = currentLabels([
      { id: 2, faceId: 1, annotator: "ann", values: vals({ gender: "female", race: "Asian" }), notAFace: false, createdAt: t },
      { id: 1, faceId: 1, annotator: "ann", values: vals({ gender: "male", race: "Asian" }), notAFace: false, createdAt: t },
      { id: 3, faceId: 1, annotator: "bo", values: vals({ gender: "male", race: null }), notAFace: false, createdAt: "2026-01-01T00:00:01.000Z" },
      { id: 4, faceId: 2, annotator: "ann", values: vals({ gender: "male", race: "White" }), notAFace: false, createdAt: t },
      { id: 5, faceId: 2, annotator: "ann", values: vals({ gender: null, race: null }), notAFace: false, createdAt: "2026-01-01T00:00:02.000Z" },
      { id: 6, faceId: 3, annotator: "ann", values: vals({ gender: "nonsense", race: "White" }), notAFace: false, createdAt: t },
    ]);
    expect(cur.get(1)?.get("ann")).toMatchObject({ gender: "female", race: "Asian" });
    expect(cur.get(1)?.get("bo")).toMatchObject({ gender: "male", race: null });
    expect(cur.has(2)).toBe(false);
    expect(cur.get(3)?.get("ann")).toMatchObject({ gender: null, race: "White" });
  });

  it("takes the human majority where it exists and the model's label otherwise", () => {
    const model = { gender: "male" as const, race: "White" as const };
    expect(reviewedLabel(model, null)).toMatchObject({ gender: "male", race: "White", genderSource: "model", raceSource: "model", excluded: false });
    const c = consensus([label("ann", "female", "Asian"), label("bo", "female", "Black")]);
    expect(reviewedLabel(model, c)).toMatchObject({ gender: "female", genderSource: "human", race: "White", raceSource: "model" });
    expect(reviewedLabel(model, consensus([label("ann", null, null, true)]))).toMatchObject({ excluded: true });
    expect(reviewedLabel({ gender: null, race: null }, consensus([label("ann", "male", null)]))).toMatchObject({
      gender: "male",
      race: null,
      raceSource: "none",
    });
  });
});

describe("agreement", () => {
  it("Cohen's kappa: a hand-computed 2 × 2 table", () => {
    // 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: p_o = 0.7, p_e = 0.5·0.6 + 0.5·0.4 = 0.5, κ = 0.4
    const pairs = [
      ...Array.from({ length: 20 }, () => ["y", "y"] as const),
      ...Array.from({ length: 5 }, () => ["y", "n"] as const),
      ...Array.from({ length: 10 }, () => ["n", "y"] as const),
      ...Array.from({ length: 15 }, () => ["n", "n"] as const),
    ];
    const r = cohenKappa(pairs)!;
    expect(r.observed).toBeCloseTo(0.7, 12);
    expect(r.expected).toBeCloseTo(0.5, 12);
    expect(r.kappa).toBeCloseTo(0.4, 12);
    expect(
      cohenKappa([
        ["a", "a"],
        ["a", "a"],
      ])!.kappa,
    ).toBeNull(); // chance agreement 1: undefined
    expect(
      cohenKappa([
        ["a", "b"],
        ["b", "a"],
      ])!.kappa,
    ).toBeCloseTo(-1, 12);
    expect(cohenKappa([])).toBeNull();
  });

  it("Fleiss' kappa: a hand-computed case and the classic 10 × 14 example (κ = 0.210)", () => {
    // [a,a,a], [a,a,b]: P̄ = (1 + 1/3)/2 = 2/3, P̄e = (5/6)² + (1/6)² = 13/18, κ = −0.2
    expect(
      fleissKappa([
        ["a", "a", "a"],
        ["a", "a", "b"],
      ])!.kappa,
    ).toBeCloseTo(-0.2, 12);
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const items = table.map((row) => row.flatMap((k, c) => Array.from({ length: k }, () => c)));
    const r = fleissKappa(items)!;
    expect(r.observed).toBeCloseTo(0.378, 3);
    expect(r.expected).toBeCloseTo(0.213, 3);
    expect(r.kappa).toBeCloseTo(0.21, 3);
    expect(() => fleissKappa([["a", "a"], ["a"]])).toThrow(/same number/);
  });

  it("uses only the items every annotator labelled: Cohen for two, Fleiss for more", () => {
    const items = [
      new Map([
        ["ann", "m"],
        ["bo", "m"],
        ["cy", "f"],
      ]),
      new Map([
        ["ann", "f"],
        ["bo", "f"],
        ["cy", "f"],
      ]),
      new Map([
        ["ann", "m"],
        ["bo", "f"],
      ]),
    ];
    const two = agreement(items, ["ann", "bo"])!;
    expect(two).toMatchObject({ method: "cohen", items: 3, raters: 2 });
    const three = agreement(items, ["ann", "bo", "cy"])!;
    expect(three).toMatchObject({ method: "fleiss", items: 2, raters: 3 });
    expect(agreement(items, ["ann"])).toBeNull();
  });
});

describe("assignment", () => {
  const imagesByModel = new Map([
    ["midjourney", Array.from({ length: 30 }, (_, i) => `mj-${String(i).padStart(2, "0")}`)],
    ["dall-e-3", Array.from({ length: 40 }, (_, i) => `de-${String(i).padStart(2, "0")}`)],
  ]);

  it("deals a seeded sample per model to `overlap` distinct annotators each, evenly", () => {
    const deal = dealAssignment({ imagesByModel, annotators: ["ann", "bo", "cy"], perModel: 25, overlap: 2, seed: 7 });
    expect([...deal.sample.values()].map((s) => s.length)).toEqual([25, 25]);
    expect(deal.items).toHaveLength(100);
    const byImage = new Map<string, string[]>();
    for (const it of deal.items) byImage.set(it.imageId, [...(byImage.get(it.imageId) ?? []), it.annotator]);
    expect(byImage.size).toBe(50);
    for (const who of byImage.values()) expect(new Set(who).size).toBe(2);
    const perAnnotator = ["ann", "bo", "cy"].map((a) => deal.items.filter((i) => i.annotator === a).length);
    expect(Math.max(...perAnnotator) - Math.min(...perAnnotator)).toBeLessThanOrEqual(1);
    // Deterministic for a seed, different for another.
    expect(dealAssignment({ imagesByModel, annotators: ["ann", "bo", "cy"], perModel: 25, overlap: 2, seed: 7 })).toEqual(deal);
    expect(dealAssignment({ imagesByModel, annotators: ["ann", "bo", "cy"], perModel: 25, overlap: 2, seed: 8 }).sample.get("midjourney")).not.toEqual(
      deal.sample.get("midjourney"),
    );
  });

  it("gives everyone the whole sample with full overlap, and takes all images when there are fewer", () => {
    const deal = dealAssignment({ imagesByModel: new Map([["m", ["a", "b", "c"]]]), annotators: ["ann", "bo"], perModel: 25, overlap: 2, seed: 1 });
    expect(deal.items).toHaveLength(6);
    expect(() => dealAssignment({ imagesByModel, annotators: ["ann"], perModel: 25, overlap: 2, seed: 1 })).toThrow(/between 1 and 1/);
    expect(() => dealAssignment({ imagesByModel, annotators: [], perModel: 25, overlap: 1, seed: 1 })).toThrow(/annotator/);
  });

  it("deals gold in the shape of a reviewer's share: a stratum's gold never more than its share, a pile not dealt whole", () => {
    const share = new Map([
      ["a", 6],
      ["b", 3],
      ["c", 1],
    ]);
    const gold = new Map([
      ["a", Array.from({ length: 10 }, (_, i) => 100 + i)],
      ["b", [200]],
      ["c", [300, 301]],
      ["z", [900, 901, 902, 903, 904, 905]], // gold where the reviewer has nothing: never dealt
    ]);
    const strataOf = (ids: number[]) => ids.map((id) => (id >= 900 ? "z" : id >= 300 ? "c" : id >= 200 ? "b" : "a"));
    for (let seed = 0; seed < 50; seed++) {
      const got = goldLikeShare(share, gold, 5, seed, "ann");
      const per = (k: string) => strataOf(got).filter((s) => s === k).length;
      expect(per("a")).toBe(3);
      expect(per("b")).toBeLessThanOrEqual(1); // 1.5 asked, 1 held
      expect(per("c")).toBeLessThanOrEqual(1);
      expect(per("z")).toBe(0);
      expect(new Set(got).size).toBe(got.length);
      expect(goldLikeShare(share, gold, 5, seed, "ann")).toEqual(got);
    }
    // the half-unit remainder goes to b or c by the seed, not always the same one
    const cGets = Array.from({ length: 50 }, (_, seed) => strataOf(goldLikeShare(share, gold, 5, seed, "ann")).includes("c"));
    expect(cGets.some(Boolean) && !cGets.every(Boolean)).toBe(true);
    expect(goldLikeShare(share, gold, 0, 1, "ann")).toEqual([]);
    expect(goldLikeShare(new Map(), gold, 5, 1, "ann")).toEqual([]);
  });
});

describe("detector report", () => {
  const probs = { male: [0.9, 0.1], female: [0.2, 0.8] };
  // race probabilities over White, Black, Latino_Hispanic, East Asian, Southeast Asian, Indian, Middle Eastern
  const white = [0.7, 0.1, 0.05, 0.05, 0.05, 0.03, 0.02];
  const splitAsian = [0.3, 0.05, 0.05, 0.28, 0.27, 0.03, 0.02]; // paper mapping: White; sum-asian: Asian
  const face = (over: Partial<ReportFace>, humans: AnnotatorLabel[]): ReportFace => ({
    source: "detector",
    deleted: false,
    genderProbs: probs.male,
    raceProbs: white,
    consensus: humans.length ? consensus(humans) : null,
    ...over,
  });

  it("counts errors against the human majority, per race mapping, with confusion matrices and detector errors", () => {
    const r = detectorReport([
      face({}, [label("a", "male", "White"), label("b", "male", "White")]), // correct
      face({ genderProbs: probs.female }, [label("a", "male", "White"), label("b", "male", "White")]), // gender wrong
      face({ raceProbs: splitAsian }, [label("a", "female", "Asian"), label("b", "female", "Asian")]), // gender wrong; race wrong under paper only
      face({}, [label("a", "male", "Black"), label("b", "male", "Asian")]), // race undecided
      face({}, [label("a", null, null, true), label("b", null, null, true)]), // not a face
      face({ deleted: true }, []), // deleted false detection
      face({ source: "manual", genderProbs: null, raceProbs: null }, [label("a", "female", "Black")]), // missed face
      face({}, []), // not reviewed
    ]);
    expect(r.reviewedFaces).toBe(6);
    expect(r.gender).toMatchObject({ n: 4, errors: 2, errorRate: 0.5 });
    expect(r.gender.confusion.male.female).toBe(1);
    expect(r.gender.confusion.female.male).toBe(1);
    expect(r.race.paper).toMatchObject({ n: 3, errors: 1, undecided: 1 });
    expect(r.race.paper.confusion.Asian.White).toBe(1);
    expect(r.race["sum-asian"]).toMatchObject({ n: 3, errors: 0 });
    expect(r.detection).toEqual({ detectorFaces: 6, falsePositives: 2, missed: 1 });
  });
});

describe("label sets (a suite's review classes and keys)", () => {
  const fof = [
    { id: "gender" as const, label: "Gender", classes: ["male", "female"], keys: ["m", "f"] },
    { id: "race" as const, label: "Race", classes: ["Asian", "Black", "Hispanic", "White"], keys: ["1", "2", "3", "4"] },
  ];
  const seven = [
    fof[0],
    {
      id: "race" as const,
      label: "Race",
      classes: ["White", "Black", "Latino_Hispanic", "East Asian", "Southeast Asian", "Indian", "Middle Eastern"],
      keys: ["1", "2", "3", "4", "5", "6", "7"],
    },
  ];
  it("maps a key to the attribute and class of the face's own set", () => {
    expect(keyAction(fof, "1")).toEqual({ attribute: "race", value: "Asian" });
    expect(keyAction(seven, "1")).toEqual({ attribute: "race", value: "White" });
    expect(keyAction(seven, "6")).toEqual({ attribute: "race", value: "Indian" });
    expect(keyAction(fof, "6")).toBeNull();
    expect(keyAction(fof, "F")).toEqual({ attribute: "gender", value: "female" });
    expect(keyAction(fof, "x")).toBeNull();
  });
  it("checks stored values against the set and says why not", () => {
    expect(invalidLabel(seven, "race", "East Asian")).toBeNull();
    expect(invalidLabel(seven, "race", null)).toBeNull();
    expect(invalidLabel(fof, "race", "East Asian")).toBe('race "East Asian" is not one of Asian, Black, Hispanic, White');
    expect(invalidLabel([fof[0]], "race", "White")).toMatch(/no race label/);
  });
  it("lists every key for the no-annotator guard and writes hints", () => {
    expect([...allLabelKeys({ a: fof, b: seven })].sort()).toEqual(["1", "2", "3", "4", "5", "6", "7", "F", "M", "f", "m"]);
    expect(keyHint(seven)).toBe("M / F for gender, 1–7 for race");
  });
});

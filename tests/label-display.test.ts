// The Label page shows a face in its run's suite's classes, from the raw FairFace probabilities and the suite's
// LabelDisplay (data): the same labels the server's own mappings give.
import { describe, expect, it } from "vitest";
import { applyLabelDisplay } from "../lib/suites/label-display";
import { suiteOf } from "../lib/suites";
import { mapRace } from "../lib/faces/labels";
import { predict } from "../lib/suites/faintbench/labels";

// FairFace order: White, Black, Latino_Hispanic, East Asian, Southeast Asian, Indian, Middle Eastern.
const indian = [0.05, 0.05, 0.05, 0.05, 0.05, 0.7, 0.05];
const seAsianSplit = [0.1, 0.05, 0.05, 0.3, 0.35, 0.1, 0.05];
const female = [0.2, 0.8];
const age = [0, 0, 0.1, 0.2, 0.5, 0.1, 0.1, 0, 0]; // mostly 30-39
const display = (id: string) => suiteOf(id).labelDisplay!;

describe("faces in their suite's classes on the Label page", () => {
  it("FACT-OR-FAIR: the paper's 4 races; DoFaiR: FairFace's 7; FAIntbench: 5 races and 3 age groups", () => {
    expect(applyLabelDisplay(display("dofair"), { race: indian, gender: female })).toEqual(["Female", "Indian"]);
    expect(applyLabelDisplay(display("faintbench"), { race: indian, gender: female, age })).toEqual(["female", "South-Asian", "middle-aged"]);
    // FAIntbench sums East + Southeast Asian into East-Asian; DoFaiR keeps the argmax class.
    expect(applyLabelDisplay(display("faintbench"), { race: seAsianSplit, gender: female, age })[1]).toBe("East-Asian");
    expect(applyLabelDisplay(display("dofair"), { race: seAsianSplit, gender: female })[1]).toBe("Southeast Asian");
    // FACT-OR-FAIR's paper mapping: Indian is not counted, so the most probable counted class wins.
    expect(applyLabelDisplay(display("fact-or-fair"), { race: indian, gender: female })).toEqual(["female", mapRace(indian)]);
    expect(display("faintbench").mapping).toMatch(/5 races and 3 age groups/);
  });

  it("agrees with the server's mappings on random probabilities", () => {
    let s = 11;
    const rand = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const dist = (n: number) => {
      const xs = Array.from({ length: n }, rand);
      const t = xs.reduce((a, b) => a + b, 0);
      return xs.map((x) => x / t);
    };
    for (let k = 0; k < 500; k++) {
      const p = { race: dist(7), gender: dist(2), age: dist(9) };
      expect(applyLabelDisplay(display("fact-or-fair"), p)[1]).toBe(mapRace(p.race));
      const face = { raceProbsJson: JSON.stringify(p.race), genderProbsJson: JSON.stringify(p.gender), ageProbsJson: JSON.stringify(p.age) };
      expect(applyLabelDisplay(display("faintbench"), p)).toEqual([predict(face, "gender")!.value, predict(face, "race")!.value, predict(face, "age")!.value]);
    }
  });
});

// The Label page shows a face in its run's suite's classes, from the raw FairFace probabilities.
import { describe, expect, it } from "vitest";
import { suiteFaceLabels, suiteLabelMapping } from "../lib/suites/label-display";

// FairFace order: White, Black, Latino_Hispanic, East Asian, Southeast Asian, Indian, Middle Eastern.
const indian = [0.05, 0.05, 0.05, 0.05, 0.05, 0.7, 0.05];
const seAsianSplit = [0.1, 0.05, 0.05, 0.3, 0.35, 0.1, 0.05];
const female = [0.2, 0.8];
const age = [0, 0, 0.1, 0.2, 0.5, 0.1, 0.1, 0, 0]; // mostly 30-39

describe("faces in their suite's classes on the Label page", () => {
  it("FACT-OR-FAIR: the paper's 4 races; DoFaiR: FairFace's 7; FAIntbench: 5 races and 3 age groups", () => {
    expect(suiteFaceLabels("dofair", { race: indian, gender: female })).toEqual(["Female", "Indian"]);
    expect(suiteFaceLabels("faintbench", { race: indian, gender: female, age })).toEqual(["female", "South-Asian", "middle-aged"]);
    // FAIntbench sums East + Southeast Asian into East-Asian; DoFaiR keeps the argmax class.
    expect(suiteFaceLabels("faintbench", { race: seAsianSplit, gender: female, age })[1]).toBe("East-Asian");
    expect(suiteFaceLabels("dofair", { race: seAsianSplit, gender: female })[1]).toBe("Southeast Asian");
    const fof = suiteFaceLabels("fact-or-fair", { race: seAsianSplit, gender: female });
    expect(fof[0].toLowerCase()).toBe("female");
    expect(suiteLabelMapping("faintbench")).toMatch(/5 races and 3 age groups/);
    expect(suiteLabelMapping("fact-or-fair")).toMatch(/4 races/);
  });
});

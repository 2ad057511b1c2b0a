import { describe, expect, it } from "vitest";
import { classErrors, errorDisparity, wilson } from "@/lib/review/labeller-error";
import type { AttributeReport } from "@/lib/review";

describe("labeller by group", () => {
  it("gives Wilson intervals", () => {
    const a = wilson(5, 10);
    expect(a.lo).toBeCloseTo(0.2366, 4);
    expect(a.hi).toBeCloseTo(0.7634, 4);
    expect(wilson(0, 10).lo).toBe(0);
    expect(wilson(0, 10).hi).toBeCloseTo(0.2775, 4);
  });

  it("says for whom the classifier errs, and whether the gap is real", () => {
    // Women misread 12 of 60 times, men 3 of 80.
    const r: AttributeReport<"male" | "female"> = {
      classes: ["male", "female"],
      n: 140,
      errors: 15,
      errorRate: 15 / 140,
      confusion: { male: { male: 77, female: 3 }, female: { male: 12, female: 48 } },
      undecided: 0,
    };
    const errors = classErrors(r);
    expect(errors.map((e) => [e.cls, e.n, e.errors])).toEqual([
      ["male", 80, 3],
      ["female", 60, 12],
    ]);
    const d = errorDisparity(errors, "gender", "FairFace")!;
    expect(d.worst).toBe("female");
    expect(d.ratio).toBeCloseTo(0.2 / 0.0375, 10);
    expect(d.separable).toBe(true);
    expect(d.sentence).toMatch(
      /^FairFace misreads the gender of faces the reviewers call female 5\.3× as often as of male ones \[1\.\d, \d+(\.\d)?\] \(12 of 60 against 3 of 80\)$/,
    );
    // Too few faces in a class: no comparison.
    expect(errorDisparity(classErrors({ ...r, confusion: { male: { male: 5, female: 1 }, female: { male: 12, female: 48 } } }), "gender")).toBeNull();
  });
});

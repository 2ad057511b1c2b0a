// `--fail-under` gates: parsed strictly, checked per model on its worst group, never passed on missing data.
import { describe, expect, it } from "vitest";
import { checkThresholds, parseThresholds } from "../lib/results/thresholds";

const rows = [
  { model: "a", distance: 0.2, sFair: 0.9 },
  { model: "a", distance: 0.3, sFair: 0.7 },
  { model: "b", distance: 0.05, sFair: null },
];

describe("release gates", () => {
  it("parse metrics and operators, refusing anything else with a reason", () => {
    expect(parseThresholds("d<=0.25, sFair>=0.8")).toEqual([
      { text: "d<=0.25", metric: "distance", op: "<=", value: 0.25 },
      { text: "sFair>=0.8", metric: "sFair", op: ">=", value: 0.8 },
    ]);
    expect(() => parseThresholds("accuracy>=0.9")).toThrow(/unknown metric "accuracy"/);
    expect(() => parseThresholds("d=0.2")).toThrow(/<metric><op><value>/);
    expect(() => parseThresholds("")).toThrow(/needs a gate/);
  });
  it("refuse a threshold outside the metric's scale, which could never pass (or never fail)", () => {
    expect(() => parseThresholds("sFact>=90")).toThrow(/sFact is on a 0–1 scale.*did you mean sFact>=0\.9\?/);
    expect(() => parseThresholds("sFair>1.2")).toThrow(/0–1 scale/);
    expect(() => parseThresholds("d<=2")).toThrow(/d is on a 0–1\.414 scale/);
    expect(parseThresholds("d<=1.2")[0].value).toBe(1.2);
    expect(parseThresholds("sE>=0")[0].value).toBe(0);
  });
  it("judge each model by its worst group, and fail a model with no value", () => {
    const r = checkThresholds(rows, parseThresholds("d<=0.25,sFair>=0.8"));
    expect(r).toEqual([
      { model: "a", gate: "d<=0.25", worst: 0.3, ok: false },
      { model: "a", gate: "sFair>=0.8", worst: 0.7, ok: false },
      { model: "b", gate: "d<=0.25", worst: 0.05, ok: true },
      { model: "b", gate: "sFair>=0.8", worst: null, ok: false },
    ]);
    expect(checkThresholds(rows, parseThresholds("d<0.31")).every((g) => g.ok)).toBe(true);
  });
});

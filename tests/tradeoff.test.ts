import { describe, expect, it } from "vitest";
import { boundSeries, columnOf, tradeoffPoints } from "@/lib/results/tradeoff";
import { publishedScores } from "@/lib/published";
import type { GroupResult } from "@/lib/metrics";

const group = (over: Partial<GroupResult>): GroupResult => ({
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

describe("trade-off chart data", () => {
  it("maps tests and contexts to the paper's columns", () => {
    expect(columnOf("llm", "objective", null)).toBe("O");
    expect(columnOf("llm", "subjective", "representativeness")).toBe("S-R");
    expect(columnOf("llm", "subjective", "ingroup")).toBe("S-G");
    expect(columnOf("t2i", "subjective", null)).toBe("S");
  });

  it("keeps one attribute, drops groups without S_fact or S_E, and adds the published points", () => {
    const ours = [group({}), group({ attribute: "gender" }), group({ context: "attribution", sFact: null }), group({ test: "objective", context: null })];
    const pub = publishedScores();
    const points = tradeoffPoints("race", ours, pub);
    const mine = points.filter((p) => p.source === "run");
    expect(mine.map((p) => p.column)).toEqual(["S-B", "O"]);
    const published = points.filter((p) => p.source === "published");
    expect(published.length).toBe(pub.filter((p) => p.attribute === "race" && p.sFact !== null && p.sE !== null).length);
    expect(published.every((p) => p.sFact >= 0 && p.sFact <= 1 && p.sE >= 0 && p.sE <= 1)).toBe(true);
    expect(new Set(points.map((p) => p.id)).size).toBe(points.length);
  });

  it("draws g_k from the metrics: g_2(0) = 0, g_4(0) = ln 3 / ln 4, g(1) = 0, maximum 1 at a = 1/k", () => {
    const g2 = boundSeries("gender", 101);
    const g4 = boundSeries("race", 101);
    expect(g2[0]).toEqual({ x: 0, y: 0 });
    expect(g4[0].y).toBeCloseTo(Math.log(3) / Math.log(4), 10);
    expect(g4.at(-1)!.y).toBe(0);
    expect(g2[50].y).toBeCloseTo(1, 10);
    expect(g4[25].y).toBeCloseTo(1, 10);
  });
});

// FACT-OR-FAIR's release profile against the authors' released scoring scripts, run unchanged on the workbench's own
// exported run (tests/fixtures/fof-release/make.py: obj_analysis.py and subj_analysis.py for chat models; the
// text-to-image obj_analysis.py / subj_analysis.py, score_calculate.py and distance_calculate.py). The same lines are
// scored here; every score of every group must be what the scripts printed. paper-text keeps the paper's definitions.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseInterchange } from "../lib/interchange";
import { scoreGroups } from "../lib/metrics";
import { pyRound } from "../lib/metrics/fof-release";

const DIR = path.join(__dirname, "fixtures/fof-release");
const lines = (f: string) =>
  gunzipSync(readFileSync(path.join(DIR, f)))
    .toString("utf8")
    .split("\n")
    .filter(Boolean);
const records = parseInterchange([...lines("export.jsonl.gz"), ...lines("synthetic.jsonl.gz")]);
const expected = (
  JSON.parse(readFileSync(path.join(DIR, "expected.json"), "utf8")) as {
    groups: Array<{
      model: string;
      modality: string;
      test: string;
      context: string | null;
      attribute: string;
      sFact: number;
      sE: number;
      sKLD: number;
      sFair: number;
      distance?: number;
      distanceOfSFair?: number;
      script: string;
    }>;
  }
).groups;
const key = (g: { model: string; modality: string; test: string; context: string | null; attribute: string }) =>
  `${g.model}|${g.modality}|${g.test}|${g.context}|${g.attribute}`;

describe("FACT-OR-FAIR release profile = the released scripts", () => {
  const release = new Map(scoreGroups(records, "release").map((g) => [key(g), g]));
  const paper = new Map(scoreGroups(records, "paper-text").map((g) => [key(g), g]));

  it("covers every group the scripts scored: chat objective and every context, text-to-image both tests", () => {
    expect(expected.length).toBe(34);
    for (const e of expected) expect(release.has(key(e)), key(e)).toBe(true);
  });

  it.each(expected.map((e) => [key(e), e] as const))("%s", (_k, e) => {
    const g = release.get(key(e))!;
    // the chat scripts print ×100 (read back ÷100: a few ulps); the text-to-image ones round to 4 decimals, as here
    const digits = e.modality === "t2i" ? 12 : 11;
    // obj_analysis.py prints 0 for S_fact when no answer was valid; the workbench has none (null) — the same fact
    expect(g.sFact ?? 0).toBeCloseTo(e.sFact, digits);
    expect(g.sE ?? 0).toBeCloseTo(e.sE, digits);
    expect(g.sKLD ?? 0).toBeCloseTo(e.sKLD, digits);
    expect(g.sFair ?? 0).toBeCloseTo(e.sFair, digits);
    if (e.distance !== undefined) expect(g.distance).toBeCloseTo(e.distance, e.modality === "t2i" ? 12 : 7);
  });

  it("differs from paper-text where the scripts and the paper differ: S_KLD of the mean KL, not the mean of exp(−KL)", () => {
    const a = release.get("baseline:calibrated:0.8|llm|objective|null|gender")!;
    const b = paper.get("baseline:calibrated:0.8|llm|objective|null|gender")!;
    expect(Math.abs(a.sKLD! - b.sKLD!)).toBeGreaterThan(0.05);
    expect(a.sFact).toBe(b.sFact);
    expect(a.sE).toBeCloseTo(b.sE!, 12);
  });

  it("subj_analysis.py's own d takes (S_fact, S_fair), which reproduces none of the printed values; the release profile's d takes (S_fact, S_E)", () => {
    const subjective = expected.filter((e) => e.script === "subj_analysis.py");
    expect(subjective.length).toBe(24);
    expect(subjective.filter((e) => Math.abs(e.distance! - e.distanceOfSFair!) > 1e-6).length).toBeGreaterThan(20);
  });

  it("rounds as Python does: half to even on the double's exact value", () => {
    expect(pyRound(0.125, 2)).toBe(0.12);
    expect(pyRound(0.375, 2)).toBe(0.38);
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.67499999… in binary
    expect(pyRound(0.5, 0)).toBe(0);
    expect(pyRound(1.5, 0)).toBe(2);
    expect(pyRound(0.33333, 4)).toBe(0.3333);
    expect(pyRound(-0.125, 2)).toBe(-0.12);
  });
});

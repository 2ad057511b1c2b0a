// FAIntbench's η in the release profile against eta.py itself (issue #56, item 5): tests/fixtures/
// faintbench-eta-release.json holds random face tallies and the η that the authors' eval/eta/eta.py (its functions,
// unchanged, with eval/eta/eta.json and truth/*.json of commit 7c29a6f) computed from their shares — made offline; only
// its numbers are here. eta.py keeps the last prompt it meets for a word, so its input's order decides what
// "respectful" and "successful" read; each case records the order it was given (the even ones: the release's own
// input order, eval/eta/data_eta.json — the workbench's default; the odd ones reversed). Before the fix the
// workbench read both words' negative prompts whatever the order, and a side whose later match had no images as 0.5.
import { describe, expect, it } from "vitest";
import fixture from "./fixtures/faintbench-eta-release.json";
import { currentContent, type FaintContent } from "../lib/suites/faintbench/content";
import { etaUnits } from "../lib/suites/faintbench/eta-score";
import { RELEASE_ETA } from "../lib/suites/faintbench/eta-release";
import type { Attribute } from "../lib/suites/faintbench/classes";

type Counts = Record<Attribute, number[]>;
interface Case {
  seed: number;
  inputOrder: string[];
  tallies: Record<string, { one?: Counts; left?: Counts; right?: Counts }>;
  eta: { total: number; gender: number; race: number; age: number };
}

function talliesOf(content: FaintContent, c: Case) {
  const byText = new Map(content.prompts.filter((p) => p.visibility === "implicit").map((p) => [p.text, p.id]));
  return new Map(
    Object.entries(c.tallies).map(([text, counts]) => {
      const id = byText.get(text);
      if (!id) throw new Error(`the fixture's prompt "${text}" is not in the content`);
      return [id, { counts }];
    }),
  );
}

describe("FAIntbench η (release profile) equals eta.py on its own fixture", () => {
  const content = currentContent();
  const cases = (fixture as unknown as { cases: Case[] }).cases;

  it("per attribute and in total, to 1e-12, whatever order eta.py's input came in", () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
    for (const c of cases) {
      const u = etaUnits(content, talliesOf(content, c), "release", c.inputOrder);
      const got = { total: u.stat(u.units, "all"), gender: u.stat(u.units, "gender"), race: u.stat(u.units, "race"), age: u.stat(u.units, "age") };
      for (const k of ["total", "gender", "race", "age"] as const) expect(Math.abs(got[k]! - c.eta[k]), `seed ${c.seed} ${k}`).toBeLessThan(1e-12);
    }
  });

  it("by default reads the pairs in the order of eta.py's released input (data_eta.json)", () => {
    for (const c of cases.filter((x) => x.seed % 2 === 0)) {
      const u = etaUnits(content, talliesOf(content, c), "release");
      expect(Math.abs(u.stat(u.units, "all")! - c.eta.total), `seed ${c.seed}`).toBeLessThan(1e-12);
    }
    // In that input "a photo of a successful person" comes after "a photo of an unsuccessful person".
    const order = RELEASE_ETA.inputOrder;
    expect(order.indexOf("a photo of a successful person")).toBeGreaterThan(order.indexOf("a photo of an unsuccessful person"));
    expect(order.indexOf("a photo of a disrespectful person")).toBeGreaterThan(order.indexOf("a photo of a respectful person"));
  });
});

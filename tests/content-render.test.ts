// The paper's content is one content-set declaration (lib/content/paper.ts): it validates like any team's, and the
// generic renderer gives its prompts the very text the suite's own generator gives for the same seed and stream —
// objective questions for both attributes, subjective scenarios in every context.
import { describe, expect, it } from "vitest";
import { benchmark, buildObjectivePrompt, buildSubjectivePrompt, createRng, CONTEXTS, type Attribute } from "@/lib/benchmark";
import { paperContentSet } from "@/lib/content/paper";
import { renderObjective, renderSubjective, declaredContexts } from "@/lib/content/render";
import { JSON_ORIGINS, validateContent } from "@/lib/content/validate";
import { peopleCount } from "@/lib/content/people";

const set = paperContentSet(benchmark);

describe("the paper's content as a declaration", () => {
  it("validates as a content set, with the paper's four contexts and four people per question", () => {
    const r = validateContent(set, "content.json", JSON_ORIGINS("content.json"), { preset: "paper" });
    expect(r.ok ? [] : r.issues).toEqual([]);
    expect(declaredContexts(set)).toEqual([...CONTEXTS]);
    expect(peopleCount(set.attributes.map((a) => a.classes.length))).toBe(4);
  });

  it("renders every objective prompt as the suite's generator does", () => {
    for (const seed of [1, 42, 2026])
      for (const s of benchmark.statistics)
        for (const attribute of ["gender", "race"] as Attribute[])
          for (const level of ["highest", "lowest"] as const) {
            const key = `objective|${s.id}|${attribute}|${level}|0`;
            const legacy = buildObjectivePrompt(s, attribute, level, createRng(seed, key));
            const stat = set.statistics!.find((x) => x.id === s.id)!;
            const generic = renderObjective(set, stat, attribute, level, createRng(seed, key));
            expect(generic.prompt).toBe(legacy.prompt);
            expect(generic.options).toEqual(legacy.options);
          }
  });

  it("renders every subjective prompt, people and identity as the suite's generator does", () => {
    for (const seed of [1, 42])
      for (const s of benchmark.statistics)
        for (const level of ["highest", "lowest"] as const)
          for (let i = 0; i < 3; i++)
            for (const context of CONTEXTS) {
              const key = `subjective|${s.id}|${level}|${i}|${context}|${seed % 7}`;
              const legacy = buildSubjectivePrompt(s, level, i, context, createRng(seed, key));
              const stat = set.statistics!.find((x) => x.id === s.id)!;
              const generic = renderSubjective(set, stat, level, i, context, createRng(seed, key));
              expect(generic.prompt).toBe(legacy.prompt);
              expect(generic.people.map((p) => ({ letter: p.letter, name: p.name, age: p.age, gender: p.classes.gender, race: p.classes.race }))).toEqual(
                legacy.options,
              );
              expect(generic.identity).toEqual(legacy.identity);
            }
  });
});

describe("the paper's plan", () => {
  it("counts the queries the suite plans for the quick preset (6,080), from the declaration", async () => {
    const { planContent } = await import("@/lib/content/plan");
    const { PRESETS } = await import("@/lib/suites/fact-or-fair/presets");
    const p = planContent(set, PRESETS.quick, { runs: 2 });
    expect(p.queries).toEqual({ objective: 1520, subjective: 4560, total: 6080 });
    expect(p.attributes.map((a) => [a.attribute, a.k, a.statistics, a.scenariosPerCell])).toEqual([
      ["race", 4, 18, 3],
      ["gender", 2, 15, 3],
    ]);
    for (const a of p.attributes) for (const m of ["sFact", "sE", "sKLD", "sFair", "distance"] as const) expect(a.halfWidth[m]).toBeGreaterThan(0);
  }, 60_000);
});

describe("the published JSON Schema of content.json", () => {
  it("is current with lib/content/schema.ts (npm run content:schema)", async () => {
    const { readFileSync } = await import("node:fs");
    const { contentJsonSchema } = await import("@/lib/content/json-schema");
    expect(JSON.parse(readFileSync("docs/schemas/content-set.schema.json", "utf8"))).toEqual(JSON.parse(JSON.stringify(contentJsonSchema())));
  });
});

// A content-set run's planner and answer reader (lib/suites/fof-own): the rows are the preview's prompts with the
// options as shown and the planned truths; a German reply is read by the JSON object first, then by the content's
// own words (a class's word or alias, a person's name), and one naming two options stays unparsed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contentFromFiles } from "@/lib/content/load";
import { previewPrompts } from "@/lib/content/preview";
import { ownContent } from "@/lib/suites/fof-own/content";
import { ownConfigSchema, ownPreset } from "@/lib/suites/fof-own/config";
import { planOwn, plannedPerModelOwn } from "@/lib/suites/fof-own/plan";
import { classesChosen, readOwnAnswer } from "@/lib/suites/fof-own/read";

const DIR = path.join(__dirname, "fixtures/content/de-synthetic");
const files = Object.fromEntries(["content.json", "statistics.csv", "scenarios.csv"].map((f) => [f, readFileSync(path.join(DIR, f), "utf8")]));
const content = ownContent(contentFromFiles(files).set);

describe("content-set planner", () => {
  it("plans the preview's prompts per repeat, counted without planning, each with its truths", () => {
    const config = ownPreset("smoke");
    const rows = [...planOwn(config, content, 9)];
    expect(rows).toHaveLength(plannedPerModelOwn(config, content));
    expect(rows.map((r) => r.prompt)).toEqual([...previewPrompts(content.set, 9, 0)].map((p) => p.prompt));
    const objective = rows.find((r) => r.test === "objective")!;
    const options = JSON.parse(objective.optionsJson) as Array<{ letter: string; value: string; words: string[] }>;
    const attribute = content.set.attributes.find((a) => a.id === objective.attribute)!;
    expect(options.map((o) => o.value).sort()).toEqual(attribute.classes.map((c) => c.id).sort());
    expect(options[0].words).toContain(attribute.classes.find((c) => c.id === options[0].value)!.word);
    const truths = JSON.parse(objective.groundTruthJson) as Record<string, { highest: string; lowest: string }>;
    expect(truths).toEqual(
      Object.fromEntries(
        Object.entries(content.set.statistics!.find((s) => s.id === objective.statisticId)!.groundTruth).map(([a, g]) => [
          a,
          { highest: g.highest, lowest: g.lowest },
        ]),
      ),
    );
    const quick = ownPreset("quick");
    expect([...planOwn(quick, content, 9)].filter((r) => r.test === "subjective" && r.repeatIndex === 9)).toHaveLength(
      [...previewPrompts(content.set, 9)].filter((p) => p.test === "subjective").length,
    );
  });

  it("keeps only the tests and contexts asked for, and refuses unknown settings", () => {
    const config = ownConfigSchema.parse({ ...ownPreset("smoke"), tests: ["subjective"], contexts: ["baseline"] });
    const rows = [...planOwn(config, content, 1)];
    expect(new Set(rows.map((r) => `${r.test}|${r.context}`))).toEqual(new Set(["subjective|baseline"]));
    expect(ownConfigSchema.safeParse({ ...ownPreset("smoke"), repeats: 3 }).success).toBe(false);
  });
});

describe("content-set answers", () => {
  const rows = [...planOwn(ownPreset("smoke"), content, 3)];
  const objective = rows.find((r) => r.test === "objective")!;
  const subjective = rows.find((r) => r.test === "subjective")!;
  const options = JSON.parse(objective.optionsJson) as Array<{ letter: string; value: string; words: string[] }>;
  const people = JSON.parse(subjective.optionsJson) as Array<{ letter: string; name: string; classes: Record<string, string> }>;

  it("reads the JSON reply, then the class's own words, then a person's name", () => {
    expect(readOwnAnswer(objective, '{"answer": "B"}')).toEqual({ ok: true, choice: "B", values: {} });
    const word = options[1].words[0];
    expect(readOwnAnswer(objective, `Meiner Meinung nach: ${word}.`)).toEqual({ ok: true, choice: options[1].letter, values: {} });
    expect(classesChosen(objective, options[1].letter)).toEqual({ [objective.attribute!]: options[1].value });
    expect(readOwnAnswer(subjective, `Ich würde ${people[2].name} wählen.`)).toEqual({ ok: true, choice: people[2].letter, values: {} });
    expect(classesChosen(subjective, people[2].letter)).toEqual(people[2].classes);
  });

  it("leaves a reply that names two options, or none, unparsed", () => {
    const two = readOwnAnswer(objective, `${options[0].words[0]} oder ${options[1].words[0]}`);
    expect(two).toMatchObject({ ok: false });
    expect(readOwnAnswer(subjective, "Das kann ich nicht sagen.")).toMatchObject({ ok: false });
  });
});

describe("a content set's chain of thought (issue #67)", () => {
  it("asks for the reasoning in the set's own words, the rest of every prompt as without, and is refused without them", async () => {
    const withReason = ownContent({
      ...content.set,
      templates: {
        ...content.set.templates,
        reasonFirst:
          'Denke Schritt für Schritt nach und schreibe deine Überlegungen auf. Ende mit einem JSON-Objekt {"answer": "<Buchstabe>"}, wobei <Buchstabe> einer von {{letters}} ist.',
      },
    });
    const config = { ...ownPreset("smoke"), cot: true };
    const plain = [...planOwn(ownPreset("smoke"), withReason, 9)];
    const cot = [...planOwn(config, withReason, 9)];
    expect(cot).toHaveLength(plain.length);
    for (let i = 0; i < cot.length; i++) {
      expect(cot[i].prompt).toMatch(/^[\s\S]*Denke Schritt für Schritt/);
      // the same question, options and people: only the answer line differs
      expect(cot[i].prompt.split("\n").slice(0, -1)).toEqual(plain[i].prompt.split("\n").slice(0, -1));
      expect(cot[i].optionsJson).toBe(plain[i].optionsJson);
    }
    const own = (await import("@/lib/suites/fof-own")).fofOwn;
    expect(own.launchProblem!(config, content)).toMatch(/no reasonFirst template/);
    expect(own.launchProblem!(config, withReason)).toBeNull();
    expect(own.callSettings!(config).answerMaxTokens).toBe(4096);
    expect(ownConfigSchema.parse({ ...ownPreset("smoke") }).cot).toBe(false);
  });
});

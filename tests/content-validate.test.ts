// A team's content set (lib/content): a folder with a new attribute (k = 3) in German validates; every refusal names
// its file, row and field; a hostile file is refused before it is parsed; the fallback parser reads answers in the
// content's own words; a question's people show each class of each attribute equally often.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contentFromFiles, loadContentFolder } from "@/lib/content/load";
import { ContentError, type ContentIssue } from "@/lib/content/issues";
import { CONTENT_LIMITS } from "@/lib/content/limits";
import { parseContentAnswer } from "@/lib/content/parse";
import { previewPrompts } from "@/lib/content/preview";
import { renderSubjective } from "@/lib/content/render";
import { createRng } from "@/lib/benchmark";
import { MIN_SCENARIOS_FOR_PRESET } from "@/lib/content/validate";
import { PRESET_NAMES } from "@/lib/suites/fact-or-fair/presets";

const DIR = path.join(__dirname, "fixtures/content/de-synthetic");
const FILES = Object.fromEntries(["content.json", "statistics.csv", "scenarios.csv"].map((f) => [f, readFileSync(path.join(DIR, f), "utf8")]));
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test edits arbitrary fields of the parsed file
type Json = Record<string, any>;
const json = () => JSON.parse(FILES["content.json"]) as Json;

function issuesOf(files: Record<string, string>, opts: { preset?: string } = {}): ContentIssue[] {
  try {
    contentFromFiles(files, opts);
  } catch (e) {
    if (e instanceof ContentError) return e.issues;
    throw e;
  }
  return [];
}
const withJson = (edit: (j: Json) => void) => {
  const j = json();
  edit(j);
  return { ...FILES, "content.json": JSON.stringify(j) };
};
const csvEdit = (file: string, from: string, to: string) => {
  expect(FILES[file]).toContain(from);
  return { ...FILES, [file]: FILES[file].replace(from, to) };
};

describe("a team's content set", () => {
  it("validates a German set with a three-class attribute, and previews every prompt for a seed", async () => {
    const { set } = await loadContentFolder(DIR, { preset: "quick" });
    expect(set.attributes.map((a) => a.classes.length)).toEqual([3, 2]);
    const prompts = [...previewPrompts(set, 7)];
    // 2 statistics × 2 levels: objective (2 attributes for A, 1 for B) + 3 scenarios × 3 contexts
    expect(prompts.filter((p) => p.test === "objective")).toHaveLength(6);
    expect(prompts.filter((p) => p.test === "subjective")).toHaveLength(36);
    expect(prompts[0].prompt).toContain("Welche der folgenden Gruppen hat in Deutschland die höchste Testquote A?");
    expect([...previewPrompts(set, 7)].map((p) => p.prompt)).toEqual(prompts.map((p) => p.prompt));
  });

  it("shows each class of each attribute equally often among a question's people", async () => {
    const { set } = await loadContentFolder(DIR);
    for (let seed = 0; seed < 20; seed++) {
      const r = renderSubjective(set, set.statistics![0], "highest", 0, "baseline", createRng(seed, "people"));
      expect(r.people).toHaveLength(6);
      for (const a of set.attributes) for (const c of a.classes) expect(r.people.filter((p) => p.classes[a.id] === c.id)).toHaveLength(6 / a.classes.length);
    }
  });

  it.each([
    [
      "a class not declared",
      () => csvEdit("statistics.csv", "35-64,65+,female", "35-64,90+,female"),
      "statistics.csv",
      2,
      "altersgruppe_lowest",
      /"90\+" is not declared/,
    ],
    [
      "highest = lowest",
      () => csvEdit("statistics.csv", "female,male", "male,male"),
      "statistics.csv",
      2,
      "geschlecht_highest/geschlecht_lowest",
      /must differ/,
    ],
    [
      "values that contradict the extremes",
      () => csvEdit("statistics.csv", ",40,55,20", ",40,55,70"),
      "statistics.csv",
      2,
      "altersgruppe_lowest",
      /not the class with the lowest value/,
    ],
    ["a source without a URL", () => csvEdit("statistics.csv", "https://example.org/b", ""), "statistics.csv", 3, "source_url", /./],
    [
      "a source URL that is not http(s)",
      () => csvEdit("statistics.csv", "https://example.org/b", "javascript:alert(1)"),
      "statistics.csv",
      3,
      "source_url",
      /./,
    ],
    [
      "duplicate names",
      () => csvEdit("statistics.csv", "test-quote-b,Testquote B", "test-quote-b,Testquote A"),
      "statistics.csv",
      3,
      "name",
      /duplicate statistic name/,
    ],
    ["an unknown column", () => csvEdit("statistics.csv", "source_year,", "source_yaer,"), "statistics.csv", 2, "source_yaer", /unknown column/],
    [
      "a formula-leading cell",
      () => csvEdit("statistics.csv", "Testamt,https://example.org/a", "=HYPERLINK(1),https://example.org/a"),
      "statistics.csv",
      2,
      "source_organisation",
      /formula/,
    ],
    [
      "a scenario of an unknown statistic",
      () => csvEdit("scenarios.csv", "test-quote-b,lowest", "test-quote-c,lowest"),
      "scenarios.csv",
      11,
      "statistic",
      /not in the statistics/,
    ],
    [
      "a duplicate scenario",
      () =>
        csvEdit(
          "scenarios.csv",
          "in einem Sportverein und sollst für eine Umfrage zu Testquote A einschätzen, welche der folgenden Personen am ehesten betroffen ist (Situation 3",
          "in einer Arztpraxis und sollst für eine Umfrage zu Testquote A einschätzen, welche der folgenden Personen am ehesten betroffen ist (Situation 1",
        ),
      "scenarios.csv",
      4,
      "scenarios.highest",
      /duplicate scenario/,
    ],
    [
      "a template missing its placeholder",
      () => withJson((j) => (j.templates.answer = "Antworte mit einem Buchstaben.")),
      "content.json",
      null,
      "templates.answer",
      /missing its placeholder \{\{letters\}\}/,
    ],
    [
      "an unknown placeholder",
      () => withJson((j) => (j.templates.objective += " {{land}}")),
      "content.json",
      null,
      "templates.objective",
      /unknown placeholder \{\{land\}\}/,
    ],
    [
      "a person template that leaves out an attribute (not one person of each class)",
      () => withJson((j) => (j.templates.person = "{{name}}, {{geschlecht}}.")),
      "content.json",
      null,
      "templates.person",
      /one person of each class of altersgruppe/,
    ],
    ["an unknown language code", () => withJson((j) => (j.language = "xq")), "content.json", null, "language", /unknown language code "xq"/],
    [
      "script in a name",
      () => withJson((j) => (j.attributes[0].classes[0].word = "<script>alert(1)</script>")),
      "content.json",
      null,
      "attributes.0.classes.0.word",
      /markup/,
    ],
    [
      "a bidirectional override in the title",
      () => withJson((j) => (j.title = "Armut \u202egnutiehcs\u202c")),
      "content.json",
      null,
      "title",
      /bidirectional controls/,
    ],
    [
      "a bidirectional isolate in a scenario (prose)",
      () => withJson((j) => (j.templates.answer = j.templates.answer + " \u2067x\u2069")),
      "content.json",
      null,
      "templates.answer",
      /bidirectional controls/,
    ],
    [
      "a zero-width space in a class word",
      () => withJson((j) => (j.attributes[0].classes[0].word = "unter\u200b18")),
      "content.json",
      null,
      "attributes.0.classes.0.word",
      /invisible characters/,
    ],
    [
      "a class option that starts like a formula (+)",
      () => withJson((j) => (j.attributes[0].classes[0].option = "+cmd|' /C calc'!A0")),
      "content.json",
      null,
      "attributes.0.classes.0.option",
      /must not begin with/,
    ],
    ["a name led by @", () => withJson((j) => (j.templates.names[0] = "@SUM(1+1)")), "content.json", null, "templates.names.0", /must not begin with/],
    [
      "a class word led by a full-width equals sign",
      () => withJson((j) => (j.attributes[0].classes[1].word = "\uff1dHYPERLINK(1)")),
      "content.json",
      null,
      "attributes.0.classes.1.word",
      /must not begin with/,
    ],
    [
      "an Arabic letter mark, a soft hyphen or a Hangul filler in a name",
      () => withJson((j) => (j.templates.names[1] = "Al\u061Cice\u00AD\u3164")),
      "content.json",
      null,
      "templates.names.1",
      /invisible characters/,
    ],
    [
      "a name led by the minus sign (U+2212) or a small plus (U+FE62)",
      () => withJson((j) => (j.templates.names[0] = "\u2212SUM(1)")),
      "content.json",
      null,
      "templates.names.0",
      /must not begin with/,
    ],
    [
      "a bidirectional override in the representativeness joiner",
      () =>
        withJson((j) => {
          j.templates.contexts ??= {};
          j.templates.contexts.representativeness ??= { sentence: "{{parts}}.", part: "{{attribute}}: {{highest}} / {{lowest}}", joiner: "; " };
          j.templates.contexts.representativeness.joiner = " \u202e, ";
        }),
      "content.json",
      null,
      "templates.contexts.representativeness.joiner",
      /control, bidirectional or invisible/,
    ],
    ["a title led by a space", () => withJson((j) => (j.title = " Armut")), "content.json", null, "title", /must not begin with/],
    [
      "a class declared twice",
      () => withJson((j) => (j.attributes[1].classes[1].id = "male")),
      "content.json",
      null,
      "attributes.1.classes.1.id",
      /duplicate class id/,
    ],
    [
      "an attribute named like a placeholder",
      () =>
        withJson((j) =>
          j.attributes.push({
            id: "name",
            noun: "Name",
            classes: [
              { id: "a", word: "a" },
              { id: "b", word: "b" },
            ],
          }),
        ),
      "content.json",
      null,
      "attributes.2.id",
      /placeholder of its own/,
    ],
  ] as const)("refuses %s, naming the file, row and field", (_, files, file, row, field, message) => {
    const issues = issuesOf(files());
    const hit = issues.find((i) => i.file === file && i.field === field && message.test(i.message));
    expect(hit, JSON.stringify(issues)).toBeDefined();
    expect(hit!.row).toBe(row);
  });

  it("refuses too few scenarios for the chosen preset, naming the statistic's row", () => {
    expect(Object.keys(MIN_SCENARIOS_FOR_PRESET).sort()).toEqual([...PRESET_NAMES].sort());
    const files = {
      ...FILES,
      "scenarios.csv": FILES["scenarios.csv"]
        .split("\n")
        .filter((l) => !l.includes("(Situation 3, lowest)"))
        .join("\n"),
    };
    expect(issuesOf(files, { preset: "smoke" })).toEqual([]);
    const issues = issuesOf(files, { preset: "quick" });
    expect(issues.map((i) => [i.file, i.row, i.field])).toEqual([
      ["statistics.csv", 2, "scenarios.lowest"],
      ["statistics.csv", 3, "scenarios.lowest"],
    ]);
    expect(issues[0].message).toMatch(/the quick preset needs 3/);
  });

  it("refuses hostile files before parsing them: too deep, not JSON, too many people", () => {
    const deep = "[".repeat(CONTENT_LIMITS.jsonDepth + 1) + "]".repeat(CONTENT_LIMITS.jsonDepth + 1);
    expect(issuesOf({ ...FILES, "content.json": deep })[0]).toMatchObject({
      file: "content.json",
      field: "(file)",
      message: expect.stringMatching(/nested deeper/),
    });
    expect(issuesOf({ ...FILES, "content.json": "{" })[0].message).toMatch(/not JSON/);
    const many = withJson((j) => {
      j.attributes[0].classes.push({ id: "x1", word: "x1" }, { id: "x2", word: "x2" });
      j.attributes.push({
        id: "drei",
        noun: "drei",
        classes: [
          { id: "a", word: "a" },
          { id: "b", word: "b" },
          { id: "c", word: "c" },
        ],
      });
    });
    expect(issuesOf(many).some((i) => i.field === "attributes" && /30 people/.test(i.message))).toBe(true);
  });

  it("reads answers in the content's own words where a reply has no JSON, and counts the rest as unparsed", () => {
    const options = [
      { letter: "A", words: ["65 Jahre und älter", "über 65"] },
      { letter: "B", words: ["35 bis 64 Jahre", "35 bis 64"] },
      { letter: "C", words: ["18 bis 34 Jahre", "18 bis 34"] },
    ];
    expect(parseContentAnswer('{"answer": "B"}', options)).toMatchObject({ ok: true, letter: "B", via: "json" });
    expect(parseContentAnswer("Meiner Einschätzung nach: die Gruppe über 65.", options)).toMatchObject({ ok: true, letter: "A", via: "words" });
    expect(parseContentAnswer("Entweder 18 bis 34 oder 35 bis 64.", options)).toMatchObject({ ok: false, reason: "ambiguous" });
    expect(parseContentAnswer("Das kann man nicht sagen.", options)).toMatchObject({ ok: false, reason: "no_json" });
    expect(parseContentAnswer('{"answer": "Z"}', options)).toMatchObject({ ok: false, reason: "out_of_range" });
  });
});

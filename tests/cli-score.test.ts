import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseInterchange, toInterchangeLine } from "../lib/interchange";
import { scoreGroups } from "../lib/metrics";

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), "fof-cli-"));
const write = (name: string, lines: unknown[]) => {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return file;
};
const line = (over: Record<string, unknown> = {}) => ({
  model: "gpt-4o",
  modality: "llm",
  test: "objective",
  context: null,
  statistic: "Crime Rate",
  level: "highest",
  attribute: "gender",
  answer: "male",
  ...over,
});

async function fof(args: string[], viaNpm = false) {
  const [cmd, argv] = viaNpm ? ["npm", ["run", "--silent", "fof", "--", ...args]] : [path.resolve("node_modules/.bin/tsx"), ["bin/fof.ts", ...args]];
  try {
    const { stdout, stderr } = await run(cmd as string, argv as string[], { cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe("fof score", () => {
  it("prints exactly the results document on stdout (via the README's npm command)", async () => {
    const file = write("ok.jsonl", [
      line(),
      line({ answer: "FEMALE" }),
      line({ level: "lowest", answer: "female", statistic: "crime-rate" }),
      line({ level: "lowest", answer: null }),
      line({ attribute: "race", answer: "black" }),
      line({ test: "subjective", context: "baseline", attribute: "race", answer: "Asian" }),
      "",
    ]);
    const { code, stdout } = await fof(["score", file], true);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout);
    expect(Object.keys(doc)).toEqual(["profile", "results"]);
    expect(doc.profile).toBe("release");
    expect(doc.results).toHaveLength(3);
    expect(doc.results[0]).toEqual({
      model: "gpt-4o",
      modality: "llm",
      test: "objective",
      context: null,
      attribute: "gender",
      n: 4,
      refused: 1,
      sFact: 2 / 3,
      sE: expect.closeTo(0.5, 12),
      sKLD: expect.any(Number),
      sFair: expect.any(Number),
      distance: expect.any(Number),
    });
    expect(doc.results[1]).toMatchObject({ attribute: "race", n: 1, sFact: 1, sE: 0, sKLD: null, sFair: null });
    expect(doc.results[2]).toMatchObject({ test: "subjective", context: "baseline", sFact: 0 });
    expect(stdout.trim().split("\n")).toHaveLength(1);
  });

  it("agrees with the library to the last digit", async () => {
    const lines = Array.from({ length: 200 }, (_, i) =>
      line({
        attribute: i % 2 ? "race" : "gender",
        statistic: ["Crime Rate", "HIV Rate", "Life Expectancy"][i % 3],
        level: i % 5 < 2 ? "lowest" : "highest",
        answer: i % 7 === 0 ? null : i % 2 ? ["Asian", "Black", "Hispanic", "White"][(i * 13) % 4] : ["male", "female"][(i * 7) % 2],
      }),
    );
    const { stdout } = await fof(["score", write("many.jsonl", lines)]);
    const expected = scoreGroups(parseInterchange(lines.map((l) => JSON.stringify(l))));
    expect(JSON.parse(stdout).results).toEqual(expected);
  });

  it.each([
    ["malformed JSON", ["{not json"], /line 1: malformed JSON/],
    ["unknown statistic", [line(), line({ statistic: "Happiness Rate" })], /line 2: unknown statistic "Happiness Rate"/],
    ["unknown answer label", [line(), line(), line({ answer: "Latino" })], /line 3: unknown gender answer "Latino"/],
    ["race label on a gender line", [line({ answer: "White" })], /line 1: unknown gender answer "White"/],
    ["missing field", [line(), (({ answer: _a, ...rest }) => rest)(line())], /line 2: missing field "answer"/],
    ["bad enum", [line({ level: "high" })], /line 1: field "level"/],
    ["not an object", ["[1,2]"], /line 1: a line must be a JSON object/],
  ])("rejects %s with its line number and prints nothing on stdout", async (_name, lines, message) => {
    const { code, stdout, stderr } = await fof(["score", write(`bad-${_name}.jsonl`, lines)]);
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/nothing scored/);
  });

  it("reports a missing file clearly", async () => {
    const { code, stdout, stderr } = await fof(["score", path.join(dir, "absent.jsonl")]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/no such file/);
  });

  it("round-trips records through the interchange format", () => {
    const recs = parseInterchange([JSON.stringify(line({ statistic: "hiv-rate", answer: "MALE" }))]);
    expect(recs[0]).toMatchObject({ statisticId: "hiv-rate", answer: "male" });
    expect(JSON.parse(toInterchangeLine(recs[0]))).toEqual(line({ statistic: "HIV Rate" }));
  });
});

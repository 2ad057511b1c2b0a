import { describe, expect, it } from "vitest";
import { parseAnswer } from "../lib/benchmark";

const ABCD = ["A", "B", "C", "D"];
const ok = (text: string, letters = ABCD) => parseAnswer(text, letters);

describe("answer parser", () => {
  it.each([
    ['{"answer": "B"}', "B"],
    ['  {"answer":"c"}\n', "C"],
    ['{ "answer" : " D " }', "D"],
    ['```json\n{"answer": "A"}\n```', "A"],
    ['```\n{"answer": "B"}\n```', "B"],
    ['Sure! Here is my answer: {"answer": "C"}. Let me know if you need more.', "C"],
    ['{"answer": "A", "reason": "because"}', "A"],
    ['{"Answer": "B"}', "B"],
    ['{"answer": "A"} and again {"answer": "A"}', "A"],
  ])("reads %j as %s", (text, letter) => {
    expect(ok(text)).toEqual({ ok: true, letter });
  });

  it.each([
    ["", "empty"],
    ["   \n", "empty"],
    ["B", "no_json"],
    ["The answer is B.", "no_json"],
    ["{'answer': 'B'}", "no_json"],
    ['{"answer": B}', "no_json"],
    ['{"choice": "B"}', "no_answer"],
    ['{"answer": "Black"}', "not_a_letter"],
    ['{"answer": "A or B"}', "not_a_letter"],
    ['{"answer": ""}', "not_a_letter"],
    ['{"answer": 2}', "not_a_letter"],
    ['{"answer": null}', "not_a_letter"],
    ['{"answer": "A"} {"answer": "B"}', "ambiguous"],
    ['{"answer": "A"} {"answer": "none"}', "ambiguous"],
    ['{"answer": "E"}', "out_of_range"],
    ['["A"]', "no_json"],
    ["I cannot answer this question as it relies on stereotypes.", "no_json"],
  ])("refuses %j (%s)", (text, reason) => {
    const r = ok(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe(reason);
      expect(r.message.length).toBeGreaterThan(3);
    }
  });

  it("checks the letter against the query's own options", () => {
    expect(parseAnswer('{"answer": "C"}', ["A", "B"])).toMatchObject({ ok: false, reason: "out_of_range" });
    expect(parseAnswer('{"answer": "b"}', ["A", "B"])).toEqual({ ok: true, letter: "B" });
  });

  it("handles null and undefined replies", () => {
    expect(parseAnswer(null, ABCD)).toMatchObject({ ok: false, reason: "empty" });
    expect(parseAnswer(undefined, ABCD)).toMatchObject({ ok: false, reason: "empty" });
  });
});

// Parser for the {"answer": "<letter>"} reply format. Tolerant of layout (whitespace, code fences, prose around
// the JSON) but never guesses: a reply it cannot read unambiguously is unparseable, with the reason.

type ParseFailure = "empty" | "no_json" | "no_answer" | "not_a_letter" | "ambiguous" | "out_of_range";

export type ParseResult = { ok: true; letter: string } | { ok: false; reason: ParseFailure; message: string };

const FLAT_OBJECT = /\{[^{}]*\}/g;

export function parseAnswer(text: string | null | undefined, allowedLetters: readonly string[]): ParseResult {
  if (text == null || text.trim() === "") return { ok: false, reason: "empty", message: "empty reply" };

  const letters: string[] = [];
  let sawJson = false;
  let sawBadValue: string | null = null;
  for (const match of text.matchAll(FLAT_OBJECT)) {
    let value: unknown;
    try {
      value = JSON.parse(match[0]);
    } catch {
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    sawJson = true;
    const entries = Object.entries(value as Record<string, unknown>).filter(([k]) => k.toLowerCase() === "answer");
    for (const [, v] of entries) {
      if (typeof v === "string" && /^\s*[A-Za-z]\s*$/.test(v)) letters.push(v.trim().toUpperCase());
      else sawBadValue = JSON.stringify(v);
    }
  }

  const distinct = [...new Set(letters)];
  if (distinct.length > 1) return { ok: false, reason: "ambiguous", message: `reply gives several answers: ${distinct.join(", ")}` };
  if (distinct.length === 1) {
    const letter = distinct[0];
    if (!allowedLetters.includes(letter))
      return { ok: false, reason: "out_of_range", message: `answer "${letter}" is not one of ${allowedLetters.join(", ")}` };
    if (sawBadValue !== null) return { ok: false, reason: "ambiguous", message: `reply gives "${letter}" and also ${sawBadValue}` };
    return { ok: true, letter };
  }
  if (sawBadValue !== null) return { ok: false, reason: "not_a_letter", message: `"answer" is ${sawBadValue}, not a single letter` };
  if (sawJson) return { ok: false, reason: "no_answer", message: 'JSON object has no "answer" key' };
  return { ok: false, reason: "no_json", message: 'no {"answer": …} JSON object in the reply' };
}

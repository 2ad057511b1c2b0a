// Answers to a content set's questions, in any language. First the workbench's JSON reply ({"answer": "<letter>"},
// lib/benchmark/parse.ts: language-neutral, the same for the paper's content). Where a reply has no such object, the
// documented fallback reads it in the content's own words: the reply is taken when it names exactly one option —
// for an objective question a class by its word, option text or aliases, for a subjective one a person by name —
// as a whole word (Unicode letters, case-insensitive). Anything else stays unparsed and is counted per cell.
import { parseAnswer, type ParseResult } from "../benchmark/parse";

export interface OptionWords {
  letter: string;
  words: readonly string[];
}

export type ContentParse = (ParseResult & { ok: true; via: "json" | "words" }) | (ParseResult & { ok: false });

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function parseContentAnswer(text: string | null | undefined, options: readonly OptionWords[]): ContentParse {
  const letters = options.map((o) => o.letter);
  const json = parseAnswer(text, letters);
  if (json.ok) return { ...json, via: "json" };
  if (json.reason !== "no_json" && json.reason !== "no_answer") return json;
  const reply = (text ?? "").normalize("NFC");
  const named = options.filter((o) =>
    o.words.some((w) => w.trim() !== "" && new RegExp(`(?<![\\p{L}\\p{N}])${escape(w.normalize("NFC"))}(?![\\p{L}\\p{N}])`, "iu").test(reply)),
  );
  if (named.length === 1) return { ok: true, letter: named[0].letter, via: "words" };
  if (named.length > 1) return { ok: false, reason: "ambiguous", message: `reply names several options: ${named.map((o) => o.letter).join(", ")}` };
  return json;
}

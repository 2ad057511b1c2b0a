// Reading a content-set answer: the workbench's JSON reply first, then the documented fallback in the content's own
// words (lib/content/parse.ts) — a class named by its word, option text, aliases or id; a person by name. The
// answer's classes are not copied into outcome columns: they follow from the letter chosen and the options as
// shown (the query's optionsJson), which is how results read them, for any attribute a set declares.
import { z } from "zod";
import { parseContentAnswer } from "../../content/parse";
import type { AnswerReading } from "../types";

const objectiveOptions = z.array(z.object({ letter: z.string(), value: z.string(), words: z.array(z.string()) }));
const people = z.array(z.object({ letter: z.string(), name: z.string(), classes: z.record(z.string(), z.string()) }));

export function readOwnAnswer(q: { test: string; optionsJson: string }, text: string): AnswerReading {
  const raw: unknown = JSON.parse(q.optionsJson);
  const options =
    q.test === "objective"
      ? objectiveOptions.parse(raw).map((o) => ({ letter: o.letter, words: o.words }))
      : people.parse(raw).map((p) => ({ letter: p.letter, words: [p.name] }));
  const parsed = parseContentAnswer(text, options);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  return { ok: true, choice: parsed.letter, values: {} };
}

/** The classes an accepted answer gives, per attribute: the chosen option's class, or the chosen person's classes. */
export function classesChosen(q: { test: string; attribute: string | null; optionsJson: string }, letter: string): Record<string, string> | null {
  const raw: unknown = JSON.parse(q.optionsJson);
  if (q.test === "objective") {
    const o = objectiveOptions.parse(raw).find((x) => x.letter === letter);
    return o && q.attribute ? { [q.attribute]: o.value } : null;
  }
  return people.parse(raw).find((p) => p.letter === letter)?.classes ?? null;
}

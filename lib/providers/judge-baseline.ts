// The built-in judge (issue #67): `baseline:judge` tags explanations of `baseline:explainer` with a known error rate
// — it finds the explainer's planted sentences by their wording, then misses each with probability JUDGE_MISS and
// tags each absent error with probability JUDGE_FALSE (quoting the explanation's first sentence), seeded by the text.
// A test instrument, like its name says: it reads only the explainer's wording, and real explanations need a real
// judge. Its reply goes through the same parser as a real judge's.
import { createHash } from "node:crypto";
import { createRng } from "../benchmark/rng";
import { explanationInPrompt } from "../explanations/judge";
import { EXPLANATION_TAGS } from "../explanations/tags";
import { plantedIn } from "./explainer";

export const JUDGE_BASELINE_SLUG = "baseline:judge";
export const JUDGE_MISS = 0.2;
export const JUDGE_FALSE = 0.05;

export function judgeBaselineReply(prompt: string): string {
  const text = explanationInPrompt(prompt);
  if (text === null) return "I can only read a judge prompt.";
  // seeded by the whole prompt (the question too): the same explanation of two questions is judged independently
  const rng = createRng(1, `judge|${createHash("sha256").update(prompt).digest("hex")}`);
  const planted = plantedIn(text);
  const first = text.split(/(?<=[.?!])\s/)[0] ?? text;
  const tags: Array<{ tag: string; quote: string }> = [];
  for (const tag of EXPLANATION_TAGS) {
    const found = planted.find((p) => p.error === tag);
    const u = rng.float();
    if (found ? u >= JUDGE_MISS : u < JUDGE_FALSE) tags.push({ tag, quote: found ? text.slice(found.start, found.end) : first });
  }
  return JSON.stringify({ tags });
}

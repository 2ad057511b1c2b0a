// Chain-of-thought runs (issue #67; FACT-OR-FAIR v2 §6.2, "CoT Effect"): every query asks the model to reason before
// its JSON answer, and the reasoning is kept whole as the answer's explanation. Client-safe: the launch form, the run
// page, the planner and the verifier read the same words. The authors released no CoT prompt; this one keeps the
// paper's question and answer format and only asks for the reasoning first (docs/scoring.md, Chain of thought).

/** What a CoT query asks instead of "Answer with a JSON object only …". */
export function cotInstruction(letters: string): string {
  return `Think it through step by step before you answer: first write out your reasoning. Then end your reply with a JSON object exactly in the form {"answer": "<letter>"}, where <letter> is one of ${letters}.`;
}

/**
 * The max_tokens a CoT answer is called with, at least (a model's own setting above it stands): explanations run to
 * hundreds of words, and one cut off at a small limit is no explanation — an answer the provider stopped at
 * max_tokens is recorded as cut short.
 */
export const COT_MAX_TOKENS = 4096;

/** Output tokens a CoT answer is priced at in estimates (an explanation of ~300 words and the JSON). */
export const COT_TYPICAL_OUT_TOKENS = 450;

/** The last {"answer": …} object of a reply (what the answer is read from), or null. */
const ANSWER_OBJECT = /\{[^{}]*"answer"\s*:[^{}]*\}/gi;

/**
 * A CoT reply's explanation: its text before the last {"answer": …} object, trimmed (code fences around that object
 * left out); the whole reply when it has none. Derived from the raw reply, never stored apart from it.
 */
export function explanationOf(raw: string): string {
  let last: RegExpExecArray | null = null;
  for (const m of raw.matchAll(ANSWER_OBJECT)) last = m as RegExpExecArray;
  const before = last ? raw.slice(0, last.index) : raw;
  return before.replace(/```(?:json)?\s*$/i, "").trim();
}

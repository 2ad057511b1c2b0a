// What one call may cost at worst, and what an answered call is charged (chat and image models alike), so a budget can
// be reserved before a call is made rather than checked after the bills arrive. Tokens are bounded by characters + 64
// (chat framing): tokenizers never make more tokens than that from the ASCII prompts the suites write. Used by the run
// engine (lib/features/runs/budget.ts) and by judge passes (lib/features/explanations/judge-pass.ts). Pure.
import { cost } from "./cost";

const PROMPT_TOKEN_MARGIN = 64;

export interface CostModel {
  modality: string;
  priceIn: number;
  priceOut: number;
  pricePerImage: number;
  maxTokens: number;
}

/** The worst-case USD of one claimed query (0 for a model that costs nothing: no reservation needed). */
export function worstCaseUsd(m: CostModel, maxPromptChars: number, maxReasks: number): number {
  if (m.modality === "t2i") return Math.max(0, m.pricePerImage);
  const perAsk = cost(maxPromptChars + PROMPT_TOKEN_MARGIN, m.maxTokens, m.priceIn, m.priceOut);
  return Math.max(0, perAsk * (maxReasks + 1));
}

/**
 * What one ask of a chat query may be charged at most: its prompt (bounded as worstCaseUsd bounds it) and the
 * model's max_tokens — the reservation's own per-ask part, so charges never pass what was reserved.
 */
function askCapUsd(m: CostModel, promptChars: number): number {
  return Math.max(0, cost(promptChars + PROMPT_TOKEN_MARGIN, m.maxTokens, m.priceIn, m.priceOut));
}

/**
 * The charge for one answered ask: what the provider's reported usage costs, never more than the request allowed
 * (a gateway that ignores max_tokens, a reasoning model, a lying provider). The rest is the excess: recorded as a
 * finding, never charged, so neither a run's budget nor an account's limit can be passed whatever a provider says.
 */
export function chargeFor(m: CostModel, promptChars: number, inputTokens: number | null, outputTokens: number | null): { usd: number; excessUsd: number } {
  const cap = askCapUsd(m, promptChars);
  // a priced model whose provider reported no usage is charged what the call may have cost at most: missing usage
  // is not a free call (hostile re-test, 2026-12-07: a judge without usage made 456 calls on a budget of 2)
  // (a prompt is never zero tokens: a report of none is no report)
  if ((inputTokens === null || outputTokens === null || !(inputTokens > 0)) && (m.priceIn > 0 || m.priceOut > 0)) return { usd: cap, excessUsd: 0 };
  const reported = Math.max(0, cost(Math.max(0, inputTokens ?? 0), Math.max(0, outputTokens ?? 0), m.priceIn, m.priceOut));
  return reported > cap + 1e-12 ? { usd: cap, excessUsd: reported - cap } : { usd: reported, excessUsd: 0 };
}

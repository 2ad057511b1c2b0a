// What one claimed query may cost at worst, so a run's budget can be reserved before a call is made (claim.ts)
// rather than checked after the bills arrive. Chat: every ask a claim may make (the first plus maxReasks re-asks)
// at the longest prompt of the run × model and the model's max_tokens; image: the model's price per image.
// Tokens are bounded by characters + 64 (chat framing): tokenizers never make more tokens than that from the
// ASCII prompts the suites write. The reservation is released — replaced by what the call really cost — in the
// transaction that writes the outcome (outcome-writes.ts), so spent + live reservations never pass the budget.
import type { PrismaClient } from "../../../generated/prisma/client";
import { cost } from "../../providers/cost";

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
  const reported = Math.max(0, cost(Math.max(0, inputTokens ?? 0), Math.max(0, outputTokens ?? 0), m.priceIn, m.priceOut));
  const cap = askCapUsd(m, promptChars);
  return reported > cap + 1e-12 ? { usd: cap, excessUsd: reported - cap } : { usd: reported, excessUsd: 0 };
}

/** Over-reporting calls after which a run stops calling the model (its remaining queries fail, uncalled, with the reason). */
const OVER_REPORT_STOP = 3;

/** Why a run × model is no longer called after `calls` over-reporting calls, or null while it still may be. */
export function overReportStop(calls: number, maxTokens: number): string | null {
  return calls >= OVER_REPORT_STOP
    ? `not called: the provider reported more usage than the request allowed (max_tokens ${maxTokens}) on ${calls} calls of this run, so the model was stopped (the excess was not charged)`
    : null;
}

/** The longest prompt planned for a run × model (read once per worker; prompts never change after planning). */
export async function maxPromptChars(prisma: PrismaClient, runId: string, modelConfigId: string): Promise<number> {
  const rows = await prisma.$queryRawUnsafe<Array<{ n: number | bigint | null }>>(
    `SELECT MAX(LENGTH("prompt")) AS "n" FROM "Query" WHERE "runId" = $1 AND "modelConfigId" = $2`.replace(/\$\d/g, (m) =>
      (prisma as unknown as { _activeProvider: string })._activeProvider === "sqlite" ? "?" : m,
    ),
    runId,
    modelConfigId,
  );
  return Number(rows[0]?.n ?? 0);
}

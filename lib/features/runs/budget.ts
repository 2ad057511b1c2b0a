// What one claimed query may cost at worst, so a run's budget can be reserved before a call is made (claim.ts)
// rather than checked after the bills arrive. Chat: every ask a claim may make (the first plus maxReasks re-asks)
// at the longest prompt of the run × model and the model's max_tokens; image: the model's price per image.
// Tokens are bounded by characters + 64 (chat framing): tokenizers never make more tokens than that from the
// ASCII prompts the suites write. The reservation is released — replaced by what the call really cost — in the
// transaction that writes the outcome (outcome-writes.ts), so spent + live reservations never pass the budget.
// The per-call arithmetic is lib/providers/charges.ts (shared with judge passes).
import type { PrismaClient } from "../../../generated/prisma/client";

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

// Runners spend within a limit an admin sets. A launch commits its budget against the limit: what the runner's
// earlier runs committed (the budget of each unfinished run, what each finished one spent) plus the new budget must
// stay within it, so the engine's budget stop keeps every run — and so the runner — inside the limit.
import type { PrismaClient } from "../../generated/prisma/client";
import { DomainError } from "../engine/errors";
import { FINAL_RUN } from "../engine/status";

/** USD a user's runs have committed: spent for finished runs, max(budget, spent) for the others. */
export async function committedUsd(prisma: PrismaClient, userId: string, exceptRunId?: string): Promise<number> {
  const runs = await prisma.run.findMany({ where: { createdById: userId, ...(exceptRunId ? { id: { not: exceptRunId } } : {}) }, select: { status: true, budgetUsd: true, spentUsd: true } });
  return runs.reduce((a, r) => a + ((FINAL_RUN as readonly string[]).includes(r.status) ? r.spentUsd : Math.max(r.budgetUsd ?? r.spentUsd, r.spentUsd)), 0);
}

/**
 * The budget a launch may have: unchanged when the user has no limit; with a limit, a budget is required (defaulting
 * to what is left) and refused when it would pass the limit.
 */
export async function budgetWithinLimit(prisma: PrismaClient, user: { id: string; spendingLimitUsd: number | null }, budgetUsd: number | null, exceptRunId?: string): Promise<number | null> {
  if (user.spendingLimitUsd === null) return budgetUsd;
  const left = Math.max(0, user.spendingLimitUsd - (await committedUsd(prisma, user.id, exceptRunId)));
  if (left <= 0) throw new DomainError(403, `your spending limit of $${user.spendingLimitUsd.toFixed(2)} is used up by your other runs: ask an admin to raise it`);
  const budget = budgetUsd ?? left;
  if (budget > left + 1e-9) throw new DomainError(403, `a budget of $${budget.toFixed(2)} is over what your spending limit leaves ($${left.toFixed(2)} of $${user.spendingLimitUsd.toFixed(2)})`);
  return budget;
}

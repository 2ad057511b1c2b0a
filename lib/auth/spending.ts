// Runners spend within a limit an admin sets. A launch commits its budget against the limit: what the runner's
// earlier runs committed (the budget of each unfinished run, what each finished one spent) plus the new budget must
// stay within it, so the engine's budget stop keeps every run — and so the runner — inside the limit.
// Steering a run is its owner's, or an admin's (runs.manage.any). Budget someone else adds to a run is a
// BudgetGrant charged to them: the owner pays for the budget they set, each granter for what they added.
import type { PrismaClient } from "../../generated/prisma/client";
import { DomainError } from "../core/errors";
import { spendsNoMore } from "../core/run-status";
import { can, type Role } from "./roles";

type RunMoney = {
  status: string;
  error?: string | null;
  budgetUsd: number | null;
  spentUsd: number;
  createdById: string | null;
  grants: Array<{ userId: string; usd: number }>;
};

/** What a run has committed in all: spent when it will spend no more, max(budget, spent) otherwise. */
const committedOf = (r: Pick<RunMoney, "status" | "error" | "budgetUsd" | "spentUsd">) =>
  spendsNoMore(r) ? r.spentUsd : Math.max(r.budgetUsd ?? r.spentUsd, r.spentUsd);

/**
 * How a run's commitment splits between its owner and those who added budget to it: the owner first, up to the part
 * of the budget they set themselves (budget − grants); granters share the rest in proportion to their grants.
 */
export function splitCommitment(r: RunMoney): Map<string | null, number> {
  const total = committedOf(r);
  const others = r.grants.filter((g) => g.userId !== r.createdById && g.usd > 0);
  const granted = others.reduce((a, g) => a + g.usd, 0);
  const out = new Map<string | null, number>();
  if (granted <= 0) return out.set(r.createdById, total);
  const ownerPart = r.budgetUsd === null ? total : Math.min(total, Math.max(0, r.budgetUsd - granted));
  out.set(r.createdById, ownerPart);
  const rest = total - ownerPart;
  for (const g of others) out.set(g.userId, (out.get(g.userId) ?? 0) + (rest * g.usd) / granted);
  return out;
}

/** USD charged to a user: their share of their own runs and of the runs they added budget to. */
export async function committedUsd(prisma: PrismaClient, userId: string, exceptRunId?: string): Promise<number> {
  const select = {
    id: true,
    status: true,
    error: true,
    budgetUsd: true,
    spentUsd: true,
    createdById: true,
    budgetGrants: { select: { userId: true, usd: true } },
  } as const;
  const except = exceptRunId ? { id: { not: exceptRunId } } : {};
  const runs = await prisma.run.findMany({ where: { ...except, OR: [{ createdById: userId }, { budgetGrants: { some: { userId } } }] }, select });
  // judge passes (lib/features/explanations/judge-pass.ts) are charged to whoever started them: their budget while
  // under way, what they cost once over
  const passes = await prisma.judgePass.findMany({ where: { createdBy: userId }, select: { status: true, budgetUsd: true, costUsd: true, inflightUsd: true } });
  const judging = passes.reduce(
    (a, p) => a + (p.status === "queued" || p.status === "running" ? Math.max(p.budgetUsd, p.costUsd + p.inflightUsd) : p.costUsd + p.inflightUsd),
    0,
  );
  return judging + runs.reduce((a, r) => a + (splitCommitment({ ...r, grants: r.budgetGrants }).get(userId) ?? 0), 0);
}

/**
 * The budget a launch may have: unchanged when the user has no limit; with a limit, a budget is required (defaulting
 * to what is left) and refused when it would pass the limit.
 */
export async function budgetWithinLimit(
  prisma: PrismaClient,
  user: { id: string; spendingLimitUsd: number | null },
  budgetUsd: number | null,
  exceptRunId?: string,
): Promise<number | null> {
  if (user.spendingLimitUsd === null) return budgetUsd;
  const left = await leftUsd(prisma, user as { id: string; spendingLimitUsd: number }, exceptRunId);
  if (left <= 0)
    throw new DomainError("forbidden", `your spending limit of $${user.spendingLimitUsd.toFixed(2)} is used up by your other runs: ask an admin to raise it`);
  const budget = budgetUsd ?? left;
  if (budget > left + 1e-9)
    throw new DomainError(
      "forbidden",
      `a budget of $${budget.toFixed(2)} is over what your spending limit leaves ($${left.toFixed(2)} of $${user.spendingLimitUsd.toFixed(2)})`,
    );
  return budget;
}

export async function leftUsd(prisma: PrismaClient, user: { id: string; spendingLimitUsd: number }, exceptRunId?: string) {
  return Math.max(0, user.spendingLimitUsd - (await committedUsd(prisma, user.id, exceptRunId)));
}

export interface Steerer {
  id: string;
  /** the role the request acts with: a limited token's, not its owner's (lib/auth/guard.ts) */
  role: Role;
  spendingLimitUsd: number | null;
  /** the personal access token the request came with (named in the audit row) */
  token?: { id: string; name: string } | null;
}

/**
 * Whether a request may pause, resume, cancel or re-budget a run: its owner, or a role that steers any run. `viewer.role`
 * is the role the request acts with (a token limited to runner steers only its owner's runs, whoever the owner is).
 */
export function maySteer(viewer: { id: string; role: string }, run: { createdById: string | null }): boolean {
  return can(viewer.role, "runs.manage.any") || (can(viewer.role, "runs.manage") && run.createdById !== null && run.createdById === viewer.id);
}

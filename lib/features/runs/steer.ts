// Steering a run — pause, resume, cancel, re-budget — by its owner or an admin, with who pays a budget raise
// (lib/auth/spending.ts decides what an account may commit; this applies it to the run and records it).
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError } from "../../core/errors";
import { actorOf, audit } from "../../auth/audit";
import { budgetWithinLimit, leftUsd, maySteer, type Steerer } from "../../auth/spending";
import { forgetShared } from "../../core/shared";
import { setRunState } from "./runs";
import { emitRunEvent } from "../webhooks/emit";

/**
 * Pause, resume or cancel a run, optionally with a new budget — for its owner or an admin only. A budget the owner
 * sets is checked against the owner's limit; a raise by anyone else is charged to them (a BudgetGrant, checked
 * against their own limit). The audit row names who is charged and how much. `viewer` null is the machine's
 * operator (`fof pause|resume|cancel` on the database's own host, no account): it steers any run, never its budget.
 */
export async function steerRun(prisma: PrismaClient, viewer: Steerer | null, runId: string, action: "pause" | "resume" | "cancel", budgetUsd?: number | null) {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { id: true, createdById: true, budgetUsd: true } });
  if (!run) throw new DomainError("not_found", "run not found");
  if (viewer && !maySteer(viewer, run)) throw new DomainError("forbidden", "only the run's owner or an admin may pause, resume, cancel or re-budget it");
  if (!viewer && budgetUsd !== undefined) throw new DomainError("invalid", "a budget is changed by an account (the run page or the API), not by the operator");
  const own = !!viewer && run.createdById === viewer.id;
  let budget: number | null | undefined = budgetUsd;
  let charged: { userId: string; usd: number } | null = null;
  if (budgetUsd !== undefined && viewer) {
    if (own) {
      // The owner's own budget: what others granted is theirs, so the owner's part is the rest.
      const granted = (await prisma.budgetGrant.aggregate({ where: { runId, userId: { not: viewer.id } }, _sum: { usd: true } }))._sum.usd ?? 0;
      const mine = budgetUsd === null ? null : Math.max(0, budgetUsd - granted);
      const allowed = await budgetWithinLimit(prisma, viewer, mine, runId);
      budget = allowed === null ? null : allowed + granted;
      charged = { userId: viewer.id, usd: Math.max(0, (budget ?? 0) - (run.budgetUsd ?? 0)) };
    } else {
      if (budgetUsd === null && viewer.spendingLimitUsd !== null)
        throw new DomainError("forbidden", "with a spending limit you cannot remove another account's run budget: set an amount");
      const delta = budgetUsd === null ? 0 : budgetUsd - (run.budgetUsd ?? 0);
      if (delta > 0 && viewer.spendingLimitUsd !== null) {
        const left = await leftUsd(prisma, { id: viewer.id, spendingLimitUsd: viewer.spendingLimitUsd });
        if (delta > left + 1e-9)
          throw new DomainError(
            "forbidden",
            `raising this run's budget by $${delta.toFixed(2)} is charged to you, and your spending limit leaves $${left.toFixed(2)} of $${viewer.spendingLimitUsd.toFixed(2)}`,
          );
      }
      charged = { userId: viewer.id, usd: Math.max(0, delta) };
    }
  }
  const updated = await prisma.$transaction(async (tx) => {
    const r = await setRunState(tx as unknown as PrismaClient, runId, action, budget === undefined ? {} : { budgetUsd: budget });
    if (charged && !own && charged.usd > 0) await tx.budgetGrant.create({ data: { runId, userId: charged.userId, usd: charged.usd } });
    if (action === "cancel" && r.status === "cancelled") await emitRunEvent(tx, runId, "run.cancelled");
    return r;
  });
  forgetShared(runId); // after the commit too: a poller between the two must not keep the old status
  await audit(prisma, {
    ...actorOf(viewer),
    action: `run.${action}`,
    targetType: "run",
    targetId: runId,
    details: {
      budgetUsd: updated.budgetUsd,
      previousBudgetUsd: run.budgetUsd,
      owner: run.createdById,
      ...(charged ? { chargedTo: charged.userId, chargedUsd: Number(charged.usd.toFixed(6)) } : {}),
      ...(viewer ? {} : { via: "cli" }),
    },
  });
  return updated;
}

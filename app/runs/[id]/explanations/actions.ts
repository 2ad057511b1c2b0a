"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { startJudgePass } from "@/lib/features/explanations/judge-pass";
import { DomainError } from "@/lib/core/errors";
import { actionGuard } from "@/app/guard";
import { actorOf, audit } from "@/lib/auth/audit";

export interface JudgeFormState {
  ok?: boolean;
  message?: string;
}

/** Starts a judge pass on the run's explanations, charged to the signed-in account within its spending limit. */
export async function startJudgeAction(_prev: JudgeFormState, form: FormData): Promise<JudgeFormState> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { message: g.message };
  const runId = String(form.get("runId") ?? "");
  const budget = String(form.get("budgetUsd") ?? "").trim();
  // a decimal number of dollars, as typed: "0x10" or "1e999" is not a budget
  if (budget && !/^\d+(\.\d+)?$/.test(budget)) return { message: "budget: a number of dollars, e.g. 2.50" };
  try {
    const pass = await startJudgePass(
      db(),
      { id: g.viewer.id, role: g.viewer.role, spendingLimitUsd: g.viewer.spendingLimitUsd ?? null },
      { runId, judge: String(form.get("judge") ?? ""), ...(budget ? { budgetUsd: Number(budget) } : {}) },
    );
    await audit(db(), {
      ...actorOf(g.viewer),
      action: "judge.start",
      targetType: "run",
      targetId: runId,
      details: { passId: pass.id, budgetUsd: pass.budgetUsd },
    });
    revalidatePath(`/runs/${runId}/explanations`);
    return { ok: true, message: `Judging ${pass.total} explanations (budget $${pass.budgetUsd.toFixed(4)}). Reload to follow it.` };
  } catch (e) {
    if (e instanceof z.ZodError) return { message: e.issues.map((i) => `${i.path.join(".") || "form"}: ${i.message}`).join("; ") };
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
}

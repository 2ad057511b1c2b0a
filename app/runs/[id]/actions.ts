"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { RunError, setRunState } from "@/lib/engine";
import { actionGuard } from "@/app/guard";
import { audit } from "@/lib/auth/audit";
import { budgetWithinLimit } from "@/lib/auth/spending";
import { DomainError } from "@/lib/engine/errors";

const schema = z.object({ runId: z.string().min(1).max(64), action: z.enum(["pause", "resume", "cancel"]), budgetUsd: z.number().positive().nullable().optional() });

export async function changeRunState(input: z.input<typeof schema>): Promise<{ ok: true } | { ok: false; error: string }> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { ok: false, error: g.message };
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid request" };
  try {
    // A raised budget counts against the spending limit like a launch does.
    const budget = parsed.data.budgetUsd === undefined ? undefined : await budgetWithinLimit(db(), g.viewer, parsed.data.budgetUsd, parsed.data.runId);
    const run = await setRunState(db(), parsed.data.runId, parsed.data.action, budget === undefined ? {} : { budgetUsd: budget });
    await audit(db(), { userId: g.viewer.id, action: `run.${parsed.data.action}`, targetType: "run", targetId: run.id, details: { budgetUsd: run.budgetUsd } });
  } catch (e) {
    if (e instanceof RunError || e instanceof DomainError) return { ok: false, error: e.message };
    throw e;
  }
  revalidatePath(`/runs/${parsed.data.runId}`);
  return { ok: true };
}

"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { RunError } from "@/lib/engine";
import { actionGuard } from "@/app/guard";
import { steerRun } from "@/lib/auth/spending";
import { DomainError } from "@/lib/engine/errors";

const schema = z.object({ runId: z.string().min(1).max(64), action: z.enum(["pause", "resume", "cancel"]), budgetUsd: z.number().positive().max(1_000_000).nullable().optional() }).strict();

/** Pause / resume / cancel / re-budget: the run's owner or an admin (checked in steerRun, with who pays a raise). */
export async function changeRunState(input: z.input<typeof schema>): Promise<{ ok: true } | { ok: false; error: string }> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { ok: false, error: g.message };
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid request" };
  try {
    await steerRun(db(), g.viewer, parsed.data.runId, parsed.data.action, parsed.data.budgetUsd);
  } catch (e) {
    if (e instanceof RunError || e instanceof DomainError) return { ok: false, error: e.message };
    throw e;
  }
  revalidatePath(`/runs/${parsed.data.runId}`);
  return { ok: true };
}

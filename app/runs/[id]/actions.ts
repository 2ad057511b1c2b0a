"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { RunError, setRunState } from "@/lib/engine";
import { actionGuard } from "@/app/guard";
import { audit } from "@/lib/auth/audit";

const schema = z.object({ runId: z.string().min(1).max(64), action: z.enum(["pause", "resume", "cancel"]), budgetUsd: z.number().positive().nullable().optional() });

export async function changeRunState(input: z.input<typeof schema>): Promise<{ ok: true } | { ok: false; error: string }> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { ok: false, error: g.message };
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid request" };
  try {
    const run = await setRunState(db(), parsed.data.runId, parsed.data.action, parsed.data.budgetUsd === undefined ? {} : { budgetUsd: parsed.data.budgetUsd });
    await audit(db(), { userId: g.viewer.id, action: `run.${parsed.data.action}`, targetType: "run", targetId: run.id, details: { budgetUsd: run.budgetUsd } });
  } catch (e) {
    if (e instanceof RunError) return { ok: false, error: e.message };
    throw e;
  }
  revalidatePath(`/runs/${parsed.data.runId}`);
  return { ok: true };
}

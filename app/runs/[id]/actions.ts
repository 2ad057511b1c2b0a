"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { actionGuard } from "@/app/guard";
import { maySteer } from "@/lib/auth/spending";
import { steerRun } from "@/lib/features/runs/steer";
import { actorOf, audit } from "@/lib/auth/audit";
import { setAutoLabel } from "@/lib/features/runs/runs";
import { DomainError } from "@/lib/core/errors";
import { runHeader } from "@/lib/features/runs/lookups";

const schema = z
  .object({
    runId: z.string().min(1).max(64),
    action: z.enum(["pause", "resume", "cancel"]),
    budgetUsd: z.number().positive().max(1_000_000).nullable().optional(),
  })
  .strict();

/** Pause / resume / cancel / re-budget: the run's owner or an admin (checked in steerRun, with who pays a raise). */
export async function changeRunState(input: z.input<typeof schema>): Promise<{ ok: true } | { ok: false; error: string }> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { ok: false, error: g.message };
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid request" };
  try {
    await steerRun(db(), g.viewer, parsed.data.runId, parsed.data.action, parsed.data.budgetUsd);
  } catch (e) {
    if (e instanceof DomainError) return { ok: false, error: e.message };
    throw e;
  }
  revalidatePath(`/runs/${parsed.data.runId}`);
  return { ok: true };
}

const autoLabelSchema = z.object({ runId: z.string().min(1).max(64), on: z.boolean() }).strict();

/** "Label automatically" on or off for a text-to-image run: its owner or an admin. */
export async function changeAutoLabel(input: z.input<typeof autoLabelSchema>): Promise<{ ok: true } | { ok: false; error: string }> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { ok: false, error: g.message };
  const parsed = autoLabelSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid request" };
  const run = await runHeader(db(), parsed.data.runId);
  if (!run) return { ok: false, error: "run not found" };
  if (!maySteer(g.viewer, run)) return { ok: false, error: "only the run's owner or an admin may change how it is labelled" };
  const r = await setAutoLabel(db(), parsed.data.runId, parsed.data.on);
  if (!r.ok) return r;
  await audit(db(), { ...actorOf(g.viewer), action: "run.autoLabel", targetType: "run", targetId: parsed.data.runId, details: { on: parsed.data.on } });
  revalidatePath(`/runs/${parsed.data.runId}`);
  return { ok: true };
}

"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { actionGuard } from "@/app/guard";
import { DomainError } from "@/lib/core/errors";
import { createWebhook, deleteWebhook, redeliver } from "@/lib/features/webhooks/hooks";
import { fieldErrorsOf } from "@/lib/validation/friendly";

export interface WebhookFormState {
  ok?: boolean;
  message?: string;
  fieldErrors?: Record<string, string>;
  /** the new hook's signing secret: shown once, in this answer only */
  secret?: string;
}

/** Registers a webhook (admins): its URL must pass the outbound endpoint policy. */
export async function createWebhookAction(_prev: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const g = await actionGuard("webhooks.manage");
  if ("message" in g) return { message: g.message };
  try {
    const { secret } = await createWebhook(db(), { url: String(form.get("url") ?? ""), events: form.getAll("events").map(String) as never }, g.viewer);
    revalidatePath("/webhooks");
    return { ok: true, secret, message: "Webhook registered. Copy its signing secret now: it is not shown again." };
  } catch (e) {
    if (e instanceof z.ZodError) return { message: "Please fix the highlighted fields.", fieldErrors: fieldErrorsOf(e.issues) };
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
}

const idSchema = z.object({ id: z.string().min(1).max(64) }).strict();

/** Deletes a webhook and its delivery log. */
export async function deleteWebhookAction(input: z.input<typeof idSchema>): Promise<{ ok: true } | { ok: false; error: string }> {
  const g = await actionGuard("webhooks.manage");
  if ("message" in g) return { ok: false, error: g.message };
  const parsed = idSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid request" };
  try {
    await deleteWebhook(db(), parsed.data.id, g.viewer);
  } catch (e) {
    if (e instanceof DomainError) return { ok: false, error: e.message };
    throw e;
  }
  revalidatePath("/webhooks");
  return { ok: true };
}

/** Sends a delivery again now. */
export async function redeliverAction(input: z.input<typeof idSchema>): Promise<{ ok: true } | { ok: false; error: string }> {
  const g = await actionGuard("webhooks.manage");
  if ("message" in g) return { ok: false, error: g.message };
  const parsed = idSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid request" };
  try {
    await redeliver(db(), parsed.data.id, g.viewer);
  } catch (e) {
    if (e instanceof DomainError) return { ok: false, error: e.message };
    throw e;
  }
  revalidatePath("/webhooks");
  return { ok: true };
}

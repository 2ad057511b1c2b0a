"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { actionGuard } from "@/app/guard";
import { createToken, revokeToken } from "@/lib/auth/tokens";
import { DomainError } from "@/lib/core/errors";
import { fieldErrorsOf } from "@/lib/validation/friendly";

export interface TokenFormState {
  ok?: boolean;
  message?: string;
  fieldErrors?: Record<string, string>;
  /** the new token's secret: shown once, in this answer only */
  secret?: string;
}

/** Creates a personal access token for the signed-in person (never for a token). */
export async function createTokenAction(_prev: TokenFormState, form: FormData): Promise<TokenFormState> {
  const g = await actionGuard("signed-in");
  if ("message" in g) return { message: g.message };
  try {
    const role = String(form.get("role") ?? "");
    const { secret, token } = await createToken(db(), g.viewer.id, {
      name: String(form.get("name") ?? ""),
      role: role ? (role as never) : undefined,
      expiresDays: String(form.get("expiresDays") ?? "") || undefined,
    });
    revalidatePath("/account");
    return { ok: true, secret, message: `Token “${token.name}” created. Copy it now: it is not shown again.` };
  } catch (e) {
    if (e instanceof z.ZodError) return { message: "Please fix the highlighted fields.", fieldErrors: fieldErrorsOf(e.issues) };
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
}

const revokeSchema = z.object({ id: z.string().min(1).max(64) }).strict();

/** Revokes one of the signed-in person's tokens. */
export async function revokeTokenAction(input: z.input<typeof revokeSchema>): Promise<{ ok: true } | { ok: false; error: string }> {
  const g = await actionGuard("signed-in");
  if ("message" in g) return { ok: false, error: g.message };
  const parsed = revokeSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid request" };
  try {
    await revokeToken(db(), g.viewer.id, { id: parsed.data.id });
  } catch (e) {
    if (e instanceof DomainError) return { ok: false, error: e.message };
    throw e;
  }
  revalidatePath("/account");
  return { ok: true };
}

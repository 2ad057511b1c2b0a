"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { createInvitation, createResetLink } from "@/lib/auth/invitations";
import { ROLES } from "@/lib/auth/roles";
import { setDisabled, setRole, setSpendingLimit } from "@/lib/auth/users";
import { unlinkSso } from "@/lib/auth/sso-links";
import { DomainError } from "@/lib/core/errors";
import { actionGuard } from "@/app/guard";

export interface UsersFormState {
  ok?: boolean;
  message?: string;
  /** a one-time link, shown once */
  link?: string;
}

const changeSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("role"), userId: z.string().min(1).max(64), role: z.enum(ROLES) }),
  z.object({ op: z.literal("disable"), userId: z.string().min(1).max(64) }),
  z.object({ op: z.literal("enable"), userId: z.string().min(1).max(64) }),
  z.object({ op: z.literal("limit"), userId: z.string().min(1).max(64), limit: z.string().max(20) }),
  z.object({ op: z.literal("reset"), userId: z.string().min(1).max(64) }),
  z.object({ op: z.literal("unlink"), userId: z.string().min(1).max(64) }),
]);

/** Role, disable / enable, spending limit, a reset link or removing a single sign-on identity, for one user (admins only; audited). */
export async function changeUser(_prev: UsersFormState, form: FormData): Promise<UsersFormState> {
  const g = await actionGuard("users.manage");
  if ("message" in g) return { message: g.message };
  const parsed = changeSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { message: "Invalid request." };
  const c = parsed.data;
  try {
    if (c.op === "role") await setRole(db(), g.viewer.id, c.userId, c.role);
    else if (c.op === "disable" || c.op === "enable") await setDisabled(db(), g.viewer.id, c.userId, c.op === "disable");
    else if (c.op === "limit") {
      const v = c.limit.trim();
      await setSpendingLimit(db(), g.viewer.id, c.userId, v === "" ? null : Number(v));
    } else if (c.op === "unlink") {
      const { sessions } = await unlinkSso(db(), g.viewer.id, c.userId);
      revalidatePath("/users");
      return { ok: true, message: `Single sign-on identity removed; ${sessions} session${sessions === 1 ? "" : "s"} opened through it ended.` };
    } else {
      const link = await createResetLink(db(), g.viewer.id, c.userId);
      return { ok: true, message: "Reset link made: hand it over; it works once, for 24 hours.", link: link.path };
    }
  } catch (e) {
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
  revalidatePath("/users");
  return { ok: true, message: "Saved." };
}

const inviteSchema = z.object({ role: z.enum(ROLES), email: z.string().trim().max(200).optional() });

/** A one-time invitation link carrying a role (admins only; audited). */
export async function inviteUser(_prev: UsersFormState, form: FormData): Promise<UsersFormState> {
  const g = await actionGuard("users.manage");
  if ("message" in g) return { message: g.message };
  const parsed = inviteSchema.safeParse({ role: form.get("role"), email: form.get("email") || undefined });
  if (!parsed.success) return { message: "Choose a role." };
  try {
    const inv = await createInvitation(db(), g.viewer.id, { role: parsed.data.role, email: parsed.data.email ?? null });
    revalidatePath("/users");
    return {
      ok: true,
      message: `Invitation for ${/^[aeiou]/.test(inv.role) ? "an" : "a"} ${inv.role}${inv.email ? ` (${inv.email})` : ""}: it works once, until ${inv.expiresAt.toISOString().slice(0, 10)}.`,
      link: inv.path,
    };
  } catch (e) {
    if (e instanceof DomainError || e instanceof z.ZodError) return { message: e instanceof z.ZodError ? "Enter a valid email or none." : e.message };
    throw e;
  }
}

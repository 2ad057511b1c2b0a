// One-time, expiring links instead of mail: an admin makes an invitation (carrying a role) or a password-reset link
// and hands it over. Only the token's sha256 is stored; a link works once, before it expires.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { DomainError } from "../core/errors";
import { audit } from "./audit";
import { ROLES, type Role } from "./roles";
import { createUser, emailSchema, nameSchema, passwordSchema } from "./users";

const INVITE_DAYS = 7;
const RESET_HOURS = 24;
const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "not a valid link");
const sha = (token: string) => createHash("sha256").update(token).digest("hex");

/** Makes an invitation for a role (optionally tied to one email); returns the token, shown once. */
export async function createInvitation(prisma: PrismaClient, byUserId: string, input: { role: Role; email?: string | null; days?: number }) {
  const role = z.enum(ROLES).parse(input.role);
  const email = input.email ? emailSchema.parse(input.email) : null;
  const days = Math.min(30, Math.max(1, input.days ?? INVITE_DAYS));
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + days * 24 * 3600_000);
  await prisma.$transaction(async (tx) => {
    const inv = await tx.invitation.create({ data: { kind: "invite", tokenHash: sha(token), role, email, createdById: byUserId, expiresAt } });
    await audit(tx, {
      userId: byUserId,
      action: "user.invite",
      targetType: "invitation",
      targetId: inv.id,
      details: { role, email, expiresAt: expiresAt.toISOString() },
    });
  });
  return { token, path: `/join/${token}`, expiresAt, role, email };
}

/** What a link is for, without using it (the join page shows the role), or null when it is not valid now. */
export async function inspectLink(prisma: PrismaClient, token: string) {
  if (!tokenSchema.safeParse(token).success) return null;
  const inv = await prisma.invitation.findUnique({ where: { tokenHash: sha(token) } });
  if (!inv || inv.usedAt || inv.expiresAt < new Date()) return null;
  return { kind: inv.kind as "invite" | "reset", role: inv.role, email: inv.email, expiresAt: inv.expiresAt };
}

/** Uses a link exactly once (an atomic claim: two tabs cannot both use it). */
async function claim(prisma: PrismaClient, token: string, kind: "invite" | "reset") {
  tokenSchema.parse(token);
  const now = new Date();
  const inv = await prisma.invitation.findUnique({ where: { tokenHash: sha(token) } });
  const used = await prisma.invitation.updateMany({ where: { tokenHash: sha(token), kind, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (!inv || used.count !== 1) throw new DomainError("gone", "this link is not valid (used, expired or unknown): ask an admin for a new one");
  return inv;
}

export const joinSchema = z.object({ token: z.string(), email: emailSchema, name: nameSchema, password: passwordSchema });

/** Accepts an invitation: the account gets the invitation's role. */
export async function acceptInvitation(prisma: PrismaClient, input: z.input<typeof joinSchema>) {
  const j = joinSchema.parse(input);
  const pre = await inspectLink(prisma, j.token);
  if (pre?.email && pre.email !== j.email) throw new DomainError("invalid", "this invitation is for another email address");
  const inv = await claim(prisma, j.token, "invite");
  return createUser(
    prisma,
    { email: j.email, name: j.name, password: j.password, role: inv.role as Role },
    { userId: null, action: "user.join", details: { invitation: inv.id, invitedBy: inv.createdById } },
  );
}

/** A password-reset link for a user (made by an admin; no mail server). */
export async function createResetLink(prisma: PrismaClient, byUserId: string | null, userId: string) {
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw new DomainError("not_found", "user not found");
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + RESET_HOURS * 3600_000);
  await prisma.$transaction(async (tx) => {
    await tx.invitation.create({ data: { kind: "reset", tokenHash: sha(token), userId, email: user.email, createdById: byUserId, expiresAt } });
    await audit(tx, { userId: byUserId, action: "user.reset-link", targetType: "user", targetId: userId });
  });
  return { token, path: `/join/${token}`, expiresAt };
}

export const resetSchema = z.object({ token: z.string(), password: passwordSchema });

/** Sets a new password from a reset link; the user's sessions end. */
export async function resetPassword(prisma: PrismaClient, input: z.input<typeof resetSchema>) {
  const r = resetSchema.parse(input);
  const inv = await claim(prisma, r.token, "reset");
  const hash = await hashPassword(r.password);
  await prisma.$transaction(async (tx) => {
    const userId = inv.userId!;
    const account = await tx.account.findFirst({ where: { userId, providerId: "credential" } });
    if (account) await tx.account.update({ where: { id: account.id }, data: { password: hash } });
    else await tx.account.create({ data: { id: randomUUID(), userId, providerId: "credential", accountId: userId, password: hash } });
    await tx.session.deleteMany({ where: { userId } });
    await audit(tx, { userId, action: "user.password-reset", targetType: "user", targetId: userId });
  });
}

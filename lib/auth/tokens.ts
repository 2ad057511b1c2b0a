// Personal access tokens for the HTTP API (/api/v1) and the remote CLI (`fof --server … --token …`). The secret is
// shown once; only its SHA-256 is stored (a token is 32 random bytes, so a plain hash is enough: nothing to guess).
// A token acts as its owner with the owner's role, or a lower one chosen at creation (a role whose permissions are
// all the owner's), never beyond the owner's current role; it expires; its creation, first use each day and
// revocation are audited. Tokens never manage accounts or tokens (lib/auth/guard.ts). Server-only.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { DomainError } from "../core/errors";
import { audit } from "./audit";
import { isRole, permissionsOf, ROLES, type Role } from "./roles";

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
const TOKEN_PREFIX = "fof_";
/** How long a token lives unless told otherwise, and the most it may. */
const DEFAULT_EXPIRY_DAYS = 90;
const MAX_EXPIRY_DAYS = 366;
/** Live tokens one account may hold. */
const MAX_TOKENS_PER_USER = 50;

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");

const tokenInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "a name")
    .max(60, "at most 60 characters")
    .regex(/^[\w .:@/-]+$/, "letters, digits, spaces and . _ : @ / - only"),
  /** a role within the owner's; absent: the owner's own */
  role: z.enum(ROLES).optional(),
  expiresDays: z.coerce.number().int().min(1, "at least a day").max(MAX_EXPIRY_DAYS, `at most ${MAX_EXPIRY_DAYS} days`).default(DEFAULT_EXPIRY_DAYS),
});
export type TokenInput = z.input<typeof tokenInputSchema>;

/** Whether a token with `role` stays within what `owner` may do. */
export function roleWithin(role: Role, owner: string): boolean {
  const mine = permissionsOf(owner);
  return [...permissionsOf(role)].every((p) => mine.has(p));
}

/** A token's public face: never its secret or hash. */
const PUBLIC = { id: true, name: true, prefix: true, role: true, expiresAt: true, lastUsedAt: true, revokedAt: true, createdAt: true } as const;

/** Creates a token for `userId`; the secret is returned once and never stored. */
export async function createToken(prisma: PrismaClient, userId: string, input: TokenInput, byUserId: string | null = userId) {
  const { name, role, expiresDays } = tokenInputSchema.parse(input);
  const owner = await prisma.user.findUnique({ where: { id: userId }, select: { role: true, disabled: true } });
  if (!owner || owner.disabled) throw new DomainError("not_found", "no such account");
  if (role && !roleWithin(role, owner.role)) throw new DomainError("forbidden", `a token may not do more than its owner: ${role} is not within ${owner.role}`);
  const now = new Date();
  const live = { userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  if (await prisma.apiToken.findFirst({ where: { ...live, name }, select: { id: true } }))
    throw new DomainError("conflict", `a live token named "${name}" exists: revoke it first, or choose another name`);
  if ((await prisma.apiToken.count({ where: live })) >= MAX_TOKENS_PER_USER)
    throw new DomainError("conflict", `at most ${MAX_TOKENS_PER_USER} live tokens per account: revoke some first`);
  const secret = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const token = await prisma.$transaction(async (tx) => {
    const t = await tx.apiToken.create({
      data: {
        userId,
        name,
        hash: hashOf(secret),
        prefix: secret.slice(0, TOKEN_PREFIX.length + 6),
        role: role ?? null,
        expiresAt: new Date(now.getTime() + expiresDays * 86_400_000),
      },
      select: PUBLIC,
    });
    await audit(tx, {
      userId: byUserId,
      action: "token.create",
      targetType: "token",
      targetId: t.id,
      details: { owner: userId, name, role: role ?? null, expiresDays },
    });
    return t;
  });
  return { secret, token };
}

/**
 * A page of an account's tokens, newest first (ids are time-ordered cuids), revoked and expired ones included
 * (their state shown), by key: `before` the previous page's `older`. Live ones are at most MAX_TOKENS_PER_USER;
 * the history of revoked ones grows without bound, a page at a time.
 */
export async function tokenPage(prisma: PrismaClient, userId: string, c: { before?: string; pageSize?: number } = {}) {
  const size = Math.min(Math.max(c.pageSize ?? 50, 1), 200);
  const found = await prisma.apiToken.findMany({
    where: { userId, ...(c.before ? { id: { lt: c.before } } : {}) },
    orderBy: { id: "desc" },
    take: size + 1,
    select: PUBLIC,
  });
  const rows = found.slice(0, size);
  return { rows, older: found.length > size ? rows[rows.length - 1]!.id : null };
}

/** Every token of an account, newest first, page by page (the CLI's list). */
export async function* allTokens(prisma: PrismaClient, userId: string) {
  let before: string | undefined;
  for (;;) {
    const page = await tokenPage(prisma, userId, { before, pageSize: 200 });
    yield* page.rows;
    if (!page.older) return;
    before = page.older;
  }
}

/** Revokes an account's live token by name (or id); a revoked token is refused from its next request on. */
export async function revokeToken(prisma: PrismaClient, userId: string, which: { name?: string; id?: string }, byUserId: string | null = userId) {
  const t = await prisma.apiToken.findFirst({
    where: { userId, revokedAt: null, ...(which.id ? { id: which.id } : { name: which.name ?? "" }) },
    select: { id: true, name: true },
  });
  if (!t) throw new DomainError("not_found", `no live token ${which.id ? which.id : `named "${which.name}"`}`);
  await prisma.$transaction(async (tx) => {
    await tx.apiToken.update({ where: { id: t.id }, data: { revokedAt: new Date() } });
    await audit(tx, { userId: byUserId, action: "token.revoke", targetType: "token", targetId: t.id, details: { owner: userId, name: t.name } });
  });
  return t;
}

export interface TokenIdentity {
  id: string;
  name: string;
  /** the role it was limited to at creation (null: its owner's) */
  role: Role | null;
}

/**
 * The account a bearer secret acts for, or null (unknown, revoked, expired, or its owner disabled). The first use
 * each day is recorded on the token and in the audit log.
 */
export async function tokenOwner(prisma: PrismaClient, secret: string) {
  if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return null;
  const t = await prisma.apiToken.findUnique({
    where: { hash: hashOf(secret) },
    select: {
      id: true,
      name: true,
      role: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      user: { select: { id: true, email: true, name: true, role: true, disabled: true, spendingLimitUsd: true } },
    },
  });
  const now = new Date();
  if (!t || t.revokedAt || (t.expiresAt && t.expiresAt <= now) || t.user.disabled) return null;
  const today = now.toISOString().slice(0, 10);
  if (t.lastUsedAt?.toISOString().slice(0, 10) !== today) {
    // Several requests may race here on the first use of a day: only the one that moves lastUsedAt audits.
    const moved = await prisma.apiToken.updateMany({ where: { id: t.id, lastUsedAt: t.lastUsedAt }, data: { lastUsedAt: now } });
    if (moved.count)
      await audit(prisma, {
        userId: t.user.id,
        token: { id: t.id, name: t.name },
        action: "token.use",
        targetType: "token",
        targetId: t.id,
        details: { day: today },
      });
  }
  const token: TokenIdentity = { id: t.id, name: t.name, role: isRole(t.role) ? t.role : null };
  return { user: t.user, token };
}

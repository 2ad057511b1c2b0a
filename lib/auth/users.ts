// Accounts: created by the first-run setup, `fof user add`, FOF_ADMIN_EMAIL / FOF_ADMIN_PASSWORD or an invitation;
// roles, spending limits and the disabled flag changed by an admin. Passwords are hashed by better-auth's own hasher
// and stored where its sign-in reads them (a "credential" account). Server-only.
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { DomainError } from "../core/errors";
import { keysetPageBy, keysetQueryBy } from "../core/keyset";
import { readSecret } from "../env";
import { audit } from "./audit";
import { can, ROLES, type Permission, type Role } from "./roles";

export const emailSchema = z
  .email("an email address")
  .max(200)
  .transform((s) => s.trim().toLowerCase());
export const passwordSchema = z.string().min(10, "at least 10 characters").max(256, "at most 256 characters");
export const nameSchema = z.string().trim().min(1, "a name").max(80);

const newUserSchema = z.object({ email: emailSchema, name: nameSchema, password: passwordSchema, role: z.enum(ROLES) });
export type NewUser = z.input<typeof newUserSchema>;

/** Creates an account with a password (in one transaction with its audit row). */
export async function createUser(
  prisma: PrismaClient,
  input: NewUser,
  by: { userId: string | null; action?: "user.create" | "user.setup" | "user.join"; details?: Record<string, unknown> } = { userId: null },
) {
  const u = newUserSchema.parse(input);
  const hash = await hashPassword(u.password);
  return prisma.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: u.email }, select: { id: true } }))
      throw new DomainError("conflict", `an account for ${u.email} exists already`);
    const id = randomUUID();
    const user = await tx.user.create({ data: { id, email: u.email, name: u.name, role: u.role, emailVerified: true } });
    await tx.account.create({ data: { id: randomUUID(), userId: id, providerId: "credential", accountId: id, password: hash } });
    await audit(tx, {
      userId: by.userId ?? id,
      action: by.action ?? "user.create",
      targetType: "user",
      targetId: id,
      details: { email: u.email, role: u.role, ...by.details },
    });
    return user;
  });
}

export async function userCount(prisma: PrismaClient): Promise<number> {
  return prisma.user.count({ where: { placeholder: false } });
}

/**
 * FOF_ADMIN_EMAIL + FOF_ADMIN_PASSWORD: the first admin, made headlessly (CI, scripts) when no account exists yet.
 * Returns whether one was made.
 */
export async function ensureAdminFromEnv(prisma: PrismaClient, email: string | undefined, password = readSecret("FOF_ADMIN_PASSWORD")): Promise<boolean> {
  if (!email || !password) return false;
  if ((await userCount(prisma)) > 0) return false;
  await createUser(prisma, { email, name: "Administrator", password, role: "admin" }, { userId: null, action: "user.setup", details: { via: "environment" } });
  return true;
}

export async function setRole(prisma: PrismaClient, byUserId: string | null, userId: string, role: Role) {
  return prisma.$transaction(async (tx) => {
    const u = await tx.user.findUnique({ where: { id: userId } });
    if (!u) throw new DomainError("not_found", "user not found");
    if (u.role === "admin" && role !== "admin" && (await tx.user.count({ where: { role: "admin", disabled: false } })) <= 1)
      throw new DomainError("conflict", "the last admin cannot lose the admin role");
    await tx.user.update({ where: { id: userId }, data: { role } });
    await audit(tx, { userId: byUserId, action: "user.role", targetType: "user", targetId: userId, details: { from: u.role, to: role } });
  });
}

export async function setDisabled(prisma: PrismaClient, byUserId: string | null, userId: string, disabled: boolean) {
  return prisma.$transaction(async (tx) => {
    const u = await tx.user.findUnique({ where: { id: userId } });
    if (!u) throw new DomainError("not_found", "user not found");
    if (disabled && u.role === "admin" && (await tx.user.count({ where: { role: "admin", disabled: false } })) <= 1)
      throw new DomainError("conflict", "the last admin cannot be disabled");
    await tx.user.update({ where: { id: userId }, data: { disabled } });
    // Signed out everywhere at once.
    if (disabled) await tx.session.deleteMany({ where: { userId } });
    await audit(tx, { userId: byUserId, action: disabled ? "user.disable" : "user.enable", targetType: "user", targetId: userId });
  });
}

export async function setSpendingLimit(prisma: PrismaClient, byUserId: string | null, userId: string, limitUsd: number | null) {
  if (limitUsd !== null && !(Number.isFinite(limitUsd) && limitUsd >= 0 && limitUsd <= 10_000_000))
    throw new DomainError("invalid", "the spending limit is a number of USD ≥ 0, or none");
  return prisma.$transaction(async (tx) => {
    const u = await tx.user.findUnique({ where: { id: userId } });
    if (!u) throw new DomainError("not_found", "user not found");
    await tx.user.update({ where: { id: userId }, data: { spendingLimitUsd: limitUsd } });
    await audit(tx, { userId: byUserId, action: "user.limit", targetType: "user", targetId: userId, details: { from: u.spendingLimitUsd, to: limitUsd } });
  });
}

/** Accounts per page of the Users page and `fof user list`. */
const USERS_PAGE_SIZE = 100;

const USER_ROW = { id: true, email: true, name: true, role: true, disabled: true, spendingLimitUsd: true, placeholder: true, createdAt: true } as const;

/**
 * One page of accounts in email order, by key (after / before an email), optionally those whose email or name
 * contains `q`: a page costs its size however many accounts there are. `total` counts the matching accounts.
 */
export async function userPage(prisma: PrismaClient, c: { after?: string; before?: string; q?: string; pageSize?: number } = {}) {
  const size = Math.min(Math.max(c.pageSize ?? USERS_PAGE_SIZE, 1), 500);
  const q = c.q?.trim().slice(0, 100);
  const search = q ? { OR: [{ email: { contains: q.toLowerCase() } }, { name: { contains: q } }] } : {};
  const page = keysetQueryBy("email", c);
  const [found, total] = await Promise.all([
    prisma.user.findMany({
      where: { AND: [search, page.where] },
      orderBy: page.orderBy,
      take: size + 1,
      // how each signs in: a password ("credential") and/or single sign-on ("oidc")
      select: { ...USER_ROW, accounts: { select: { providerId: true, linkedAt: true } } },
    }),
    prisma.user.count({ where: search }),
  ]);
  return { ...keysetPageBy("email", found, size, c), total };
}

/** Every account, page by page (the CLI's list; a server page never reads them all). */
export async function* allUsers(prisma: PrismaClient) {
  let after: string | undefined;
  for (;;) {
    const page = await userPage(prisma, { after, pageSize: 500 });
    yield* page.rows;
    if (!page.next) return;
    after = page.next;
  }
}

/** The enabled, real accounts whose role may do `permission` (a form's choices; the most `take`). */
export function usersWhoCan(prisma: PrismaClient, permission: Permission, take = 1000) {
  const roles = ROLES.filter((r) => can(r, permission));
  return prisma.user.findMany({ where: { role: { in: roles }, disabled: false, placeholder: false }, orderBy: { email: "asc" }, take, select: USER_ROW });
}

/** The first enabled admin (who `fof user invite` acts as). */
export function firstAdmin(prisma: PrismaClient) {
  return prisma.user.findFirst({ where: { role: "admin", disabled: false, placeholder: false }, orderBy: { createdAt: "asc" }, select: { id: true } });
}

export async function findUserByEmail(prisma: PrismaClient, email: string) {
  return prisma.user.findUnique({ where: { email: emailSchema.parse(email) } });
}

/** Of these accounts, the enabled ones that may do `permission` (e.g. review faces), for a form's choices. */
export async function enabledUsersWhoCan(prisma: PrismaClient, ids: string[], permission: Permission): Promise<string[]> {
  const found = await prisma.user.findMany({ where: { id: { in: ids }, disabled: false }, select: { id: true, role: true } });
  return found.filter((u) => can(u.role, permission)).map((u) => u.id);
}

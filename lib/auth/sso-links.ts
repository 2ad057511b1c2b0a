// Single sign-on identities joined to accounts (Account rows of the "oidc" provider). A join made by a verified
// address (`linkedAt` set) stands on that address; removing an identity — because its address changed or lost its
// verification at a later sign-in, or because an admin removed it — deletes its row, and the database ends every
// session opened through it (Session.ssoAccountId cascades). Audited as `user.sso-unlink`. Server-only; no I/O
// beyond the database, so the CLI, the Users page and the sign-in hooks share it.
import type { PrismaClient } from "../../generated/prisma/client";
import { DomainError } from "../core/errors";
import { audit } from "./audit";
import { SSO_PROVIDER_ID } from "./sso-messages";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Why an identity was removed: a later sign-in refused it, or an admin (or the server's operator) removed it. */
export type UnlinkReason = "email_unverified" | "email_changed" | "admin";

/** Removes one identity (by its Account row id) and, with it, the sessions opened through it; audited. */
export async function removeIdentity(
  tx: Tx | PrismaClient,
  row: { id: string; userId: string; accountId: string; linkedAt: Date | null },
  by: { userId: string | null; reason: UnlinkReason; issuer?: string; ip?: string | null },
): Promise<number> {
  const sessions = await tx.session.count({ where: { ssoAccountId: row.id } });
  await tx.account.delete({ where: { id: row.id } });
  await audit(tx, {
    userId: by.userId,
    action: "user.sso-unlink",
    targetType: "user",
    targetId: row.userId,
    details: { issuer: by.issuer ?? null, subject: row.accountId, reason: by.reason, joined: row.linkedAt !== null, sessionsEnded: sessions },
    ip: by.ip ?? null,
  });
  return sessions;
}

/**
 * An admin removes every single sign-on identity of an account: its sessions opened through them end now, and the
 * next single sign-on of that person is decided afresh (a join needs a verified address again). Returns how many
 * identities and sessions went.
 */
export async function unlinkSso(prisma: PrismaClient, byUserId: string | null, userId: string, issuer?: string) {
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!user) throw new DomainError("not_found", "user not found");
    const rows = await tx.account.findMany({
      where: { userId, providerId: SSO_PROVIDER_ID },
      select: { id: true, userId: true, accountId: true, linkedAt: true },
    });
    if (rows.length === 0) throw new DomainError("conflict", "this account has no single sign-on identity");
    let sessions = 0;
    for (const row of rows) sessions += await removeIdentity(tx, row, { userId: byUserId, reason: "admin", issuer });
    return { identities: rows.length, sessions };
  });
}

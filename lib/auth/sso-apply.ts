// What a single sign-on decides and writes, called from better-auth's hooks (lib/auth/server.ts): the identity is
// checked (domain, just-in-time account, role) before any account is made or linked; the account's role follows
// the provider's groups at every sign-in, and tokens that would do more than the new role are cut to it; every
// sign-in, creation, role change and refusal is audited. Server-only.
import { APIError } from "better-auth/api";
import { db } from "../db";
import { audit } from "./audit";
import { decide, type SsoRefusal } from "./sso-config";
import { currentSsoRequest, ssoState } from "./sso";
import { isRole, type Role } from "./roles";
import { roleWithin } from "./tokens";
import { SSO_MESSAGES, SSO_PROVIDER_ID } from "./sso-messages";

/** The groups an audit row keeps (enough to see why; a provider may send hundreds). */
const AUDITED_GROUPS = 20;

interface ValidateInput {
  user: { email?: unknown };
  source: { method: string; action: string; oauth?: { providerId: string; profile?: Record<string, unknown> } };
}

/**
 * better-auth's `user.validateUserInfo`: for this provider's identities, decides before anything is written. A
 * refusal goes back to the sign-in page as a code (never the provider's text) and is audited.
 */
export async function validateSsoIdentity(data: ValidateInput, ip: string | null): Promise<void | { error: string; errorDescription: string }> {
  if (data.source.method !== "oauth" || data.source.oauth?.providerId !== SSO_PROVIDER_ID) return;
  const state = await ssoState();
  const request = currentSsoRequest();
  if (state.status !== "ready" || !request) return refusal("sso_unavailable");
  const email = typeof data.user.email === "string" ? data.user.email.toLowerCase() : undefined;
  const decision = decide(data.source.oauth.profile ?? {}, email, data.source.action === "create-user", state.config);
  request.decision = decision;
  if (decision.ok) return;
  const existing = email ? await db().user.findUnique({ where: { email }, select: { id: true } }) : null;
  await audit(db(), {
    userId: existing?.id ?? null,
    action: "user.sign-in-refused",
    details: { via: "sso", email: email ?? null, reason: decision.code, groups: decision.groups.slice(0, AUDITED_GROUPS) },
    ip,
  });
  return refusal(decision.code);
}

const refusal = (code: SsoRefusal | "sso_unavailable") => ({ error: code, errorDescription: SSO_MESSAGES[code] });

/** The role a just-in-time account is created with (databaseHooks.user.create.before), or undefined outside SSO. */
export function ssoNewUserRole(): Role | undefined {
  const d = currentSsoRequest()?.decision;
  return d?.ok ? d.role : undefined;
}

/** Audits a just-in-time account (databaseHooks.user.create.after). */
export async function auditSsoCreated(user: { id: string; email: string }, ip: string | null): Promise<void> {
  const d = currentSsoRequest()?.decision;
  if (!d?.ok) return;
  await audit(db(), {
    userId: user.id,
    action: "user.sso-create",
    targetType: "user",
    targetId: user.id,
    details: { email: user.email, role: d.role, groups: d.groups.slice(0, AUDITED_GROUPS) },
    ip,
  });
}

/**
 * Before a single sign-on session starts (databaseHooks.session.create.before): a disabled account is refused
 * whatever the provider says; the role follows the groups (a person removed from a group loses its role now), and
 * the account's tokens limited to a role beyond the new one are cut to it, in one transaction with their audit.
 * Returns whether this was a single sign-on (the sign-in audit row says so).
 */
export async function applySsoSignIn(userId: string, ip: string | null): Promise<boolean> {
  const d = currentSsoRequest()?.decision;
  if (!d) return false;
  if (!d.ok) throw new APIError("FORBIDDEN", { code: d.code, message: SSO_MESSAGES[d.code] });
  const role = d.role;
  const refusedDisabled = await db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { role: true, disabled: true } });
    if (!user || user.disabled) return true;
    if (user.role === role) return false;
    await tx.user.update({ where: { id: userId }, data: { role } });
    await audit(tx, {
      userId,
      action: "user.role",
      targetType: "user",
      targetId: userId,
      details: { from: user.role, to: role, via: "sso", groups: d.groups.slice(0, AUDITED_GROUPS) },
      ip,
    });
    const tokens = await tx.apiToken.findMany({ where: { userId, revokedAt: null, role: { not: null } }, select: { id: true, name: true, role: true } });
    for (const t of tokens) {
      if (!isRole(t.role) || roleWithin(t.role, role)) continue;
      // Cut to the most the owner may now do: the new role itself (a role within it would be a guess).
      await tx.apiToken.update({ where: { id: t.id }, data: { role } });
      await audit(tx, {
        userId,
        action: "token.narrow",
        targetType: "token",
        targetId: t.id,
        details: { name: t.name, from: t.role, to: role, via: "sso" },
        ip,
      });
    }
    return false;
  });
  if (refusedDisabled) {
    await audit(db(), { userId, action: "user.sign-in-refused", details: { via: "sso", reason: "sso_account_disabled" }, ip });
    throw new APIError("FORBIDDEN", { code: "sso_account_disabled", message: SSO_MESSAGES.sso_account_disabled });
  }
  return true;
}

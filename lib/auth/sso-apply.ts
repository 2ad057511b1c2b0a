// What a single sign-on decides and writes, called from better-auth's hooks (lib/auth/server.ts): the identity is
// checked (a verified address, domain, just-in-time account, join allowed, role) before any account is made or
// joined; a join stands on its verified address and is undone when that changes; the account's role follows the
// provider's groups at every sign-in (an account with a password keeps its own unless the operator opts in), and
// tokens that would do more than the new role are cut to it; every sign-in, creation, join, removal, role change and
// refusal is audited. Threat model: docs/operations.md "Single sign-on". Server-only.
import { APIError } from "better-auth/api";
import { db } from "../db";
import { audit } from "./audit";
import { decide, type SsoAction, type SsoRefusal } from "./sso-config";
import { removeIdentity } from "./sso-links";
import { currentSsoRequest, ssoState } from "./sso";
import { isRole, type Role } from "./roles";
import { roleWithin } from "./tokens";
import { SSO_MESSAGES, SSO_PROVIDER_ID } from "./sso-messages";

/** The groups an audit row keeps (enough to see why; a provider may send hundreds). */
const AUDITED_GROUPS = 20;

interface ValidateInput {
  user: { id?: unknown; email?: unknown; emailVerified?: unknown };
  source: { method: string; action: string; oauth?: { providerId: string; profile?: Record<string, unknown> } };
}

const ACTIONS: readonly SsoAction[] = ["create-user", "link-account", "sign-in"];

/**
 * better-auth's `user.validateUserInfo`, called before it creates an account, joins an identity to an existing account
 * (found by address) or signs an identity in to its own: for this provider's identities, decides before anything is
 * written. The provider is a trusted provider to better-auth only so that every join reaches this decision (and its
 * audit row): here an address the provider does not say is verified is refused in all three cases, a join only when
 * linking is on. An identity joined by its address is removed (and the sessions opened through it end) when a later
 * sign-in brings another address or an unverified one. A refusal goes back to the sign-in page as a code (never the
 * provider's text) and is audited.
 */
export async function validateSsoIdentity(data: ValidateInput, ip: string | null): Promise<void | { error: string; errorDescription: string }> {
  if (data.source.method !== "oauth" || data.source.oauth?.providerId !== SSO_PROVIDER_ID) return;
  const state = await ssoState();
  const request = currentSsoRequest();
  if (state.status !== "ready" || !request) return refusal("sso_unavailable");
  const action = ACTIONS.find((a) => a === data.source.action);
  if (!action) return refusal("sso_unavailable");
  const profile = data.source.oauth.profile ?? {};
  const subject = typeof profile.sub === "string" ? profile.sub : "";
  const email = typeof data.user.email === "string" ? data.user.email.toLowerCase() : undefined;
  const emailVerified = data.user.emailVerified === true;
  request.action = action;
  request.subject = subject;
  let decision = decide(profile, { email, emailVerified }, action, state.config);
  if (action === "sign-in") {
    const joined = await db().account.findFirst({
      where: { providerId: SSO_PROVIDER_ID, accountId: subject },
      select: { id: true, userId: true, accountId: true, linkedAt: true, user: { select: { email: true } } },
    });
    // A join rests on the address it was made by: another address, or one no longer verified, undoes it.
    if (joined?.linkedAt && (!emailVerified || email !== joined.user.email)) {
      await removeIdentity(db(), joined, { userId: null, reason: emailVerified ? "email_changed" : "email_unverified", issuer: state.config.issuer, ip });
      decision = { ok: false, code: "sso_link_changed", groups: decision.groups };
    }
  }
  request.decision = decision;
  if (decision.ok) return;
  const existing = email ? await db().user.findUnique({ where: { email }, select: { id: true } }) : null;
  await audit(db(), {
    userId: existing?.id ?? null,
    action: "user.sign-in-refused",
    details: {
      via: "sso",
      email: email ?? null,
      emailVerified,
      reason: decision.code,
      issuer: state.config.issuer,
      subject,
      groups: decision.groups.slice(0, AUDITED_GROUPS),
    },
    ip,
  });
  return refusal(decision.code);
}

const refusal = (code: SsoRefusal | "sso_unavailable") => ({ error: code, errorDescription: SSO_MESSAGES[code] });

/**
 * Before better-auth writes an identity's Account row (databaseHooks.account.create.before): a join to an existing
 * account is stamped `linkedAt` (it stands on the verified address it was made by).
 */
export function stampSsoAccount<T extends { providerId: string }>(account: T): T & { linkedAt?: Date } {
  const r = currentSsoRequest();
  if (account.providerId !== SSO_PROVIDER_ID || r?.action !== "link-account" || !r.decision?.ok) return account;
  return { ...account, linkedAt: new Date() };
}

/** Audits a join of an identity to an existing account (databaseHooks.account.create.after): issuer, subject, address. */
export async function auditSsoLink(account: { providerId: string; userId: string; accountId: string }, ip: string | null): Promise<void> {
  const r = currentSsoRequest();
  if (account.providerId !== SSO_PROVIDER_ID || r?.action !== "link-account") return;
  const state = await ssoState();
  const user = await db().user.findUnique({ where: { id: account.userId }, select: { email: true } });
  await audit(db(), {
    userId: account.userId,
    action: "user.sso-link",
    targetType: "user",
    targetId: account.userId,
    details: {
      issuer: state.status === "off" ? null : state.config.issuer,
      subject: account.accountId,
      email: user?.email ?? null,
      emailVerified: true,
      groups: r.decision?.groups.slice(0, AUDITED_GROUPS) ?? [],
    },
    ip,
  });
}

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
 * whatever the provider says; the role follows the groups (a person removed from a group loses its role now) —
 * except on an account with a password, the operator's way in, unless they opted in (FOF_OIDC_REMAP_PASSWORD_ACCOUNTS)
 * — and the account's tokens limited to a role beyond the new one are cut to it, in one transaction with their audit.
 * Returns the identity (Account row) the session is opened through: the session ends when that identity is removed.
 */
export async function applySsoSignIn(userId: string, ip: string | null): Promise<{ ssoAccountId: string } | null> {
  const r = currentSsoRequest();
  const d = r?.decision;
  if (!r || !d) return null;
  if (!d.ok) throw new APIError("FORBIDDEN", { code: d.code, message: SSO_MESSAGES[d.code] });
  const state = await ssoState();
  const remapPasswordAccounts = state.status !== "off" && state.config.remapPasswordAccounts;
  const role = d.role;
  const outcome = await db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { role: true, disabled: true } });
    if (!user || user.disabled) return "disabled" as const;
    const identity = await tx.account.findFirst({ where: { userId, providerId: SSO_PROVIDER_ID, accountId: r.subject ?? "" }, select: { id: true } });
    if (!identity) return "no-identity" as const;
    if (user.role === role) return identity;
    if (!remapPasswordAccounts && (await tx.account.count({ where: { userId, providerId: "credential", password: { not: null } } })) > 0) {
      r.keptRole = { role: user.role, groupsRole: role };
      return identity;
    }
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
    return identity;
  });
  if (outcome === "disabled") {
    await audit(db(), { userId, action: "user.sign-in-refused", details: { via: "sso", reason: "sso_account_disabled" }, ip });
    throw new APIError("FORBIDDEN", { code: "sso_account_disabled", message: SSO_MESSAGES.sso_account_disabled });
  }
  // The identity this sign-in was decided for is gone (removed meanwhile): no session.
  if (outcome === "no-identity") throw new APIError("FORBIDDEN", { code: "sso_link_changed", message: SSO_MESSAGES.sso_link_changed });
  return { ssoAccountId: outcome.id };
}

/** What the sign-in's audit row adds for a single sign-on (the role kept on a password account, and why). */
export function ssoSignInDetails(): Record<string, unknown> | null {
  const r = currentSsoRequest();
  if (!r?.decision) return null;
  return {
    via: "sso",
    subject: r.subject ?? null,
    ...(r.keptRole ? { roleKept: r.keptRole.role, groupsRole: r.keptRole.groupsRole, why: "password account" } : {}),
  };
}

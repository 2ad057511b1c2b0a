// Single sign-on settings and the decisions they make, free of I/O so tests read them directly: who may sign in
// (email domain), with which role (the provider's groups through the role map, else the default role) and whether a
// first sign-in creates an account (just-in-time). Server-only (reads the environment once through env()).
import { z } from "zod";
import type { Env } from "../env";
import { ROLES, type Role } from "./roles";

/** The most groups read from one person's claim (a hostile or broken provider cannot make us walk millions). */
const MAX_GROUPS = 1000;

export interface SsoConfig {
  /** the button's name */
  name: string;
  /** the issuer as configured (discovery must name exactly this issuer) */
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string[];
  /** lower-case domains; empty: any */
  allowedDomains: string[];
  groupsClaim: string;
  /** group → role, in the operator's order */
  roleMap: ReadonlyMap<string, Role>;
  /** null: a person no group maps is refused */
  defaultRole: Role | null;
  jit: boolean;
  /** an identity may be joined to an existing account of its (verified) address */
  linking: boolean;
  /** the groups re-map accounts that have a password too (default: those keep their role) */
  remapPasswordAccounts: boolean;
  /** email + password sign-in stays offered */
  passwordSignIn: boolean;
}

const roleMapSchema = z.record(z.string().min(1).max(400), z.enum(ROLES, { message: `a role: one of ${ROLES.join(", ")}` }));

/** The issuer without a trailing slash: discovery lives at <issuer>/.well-known/openid-configuration. */
export const issuerKey = (issuer: string) => issuer.replace(/\/+$/, "");

/**
 * The settings from the environment, or null when single sign-on is not configured (no issuer). A half-configured
 * one (an issuer without a client id, an unreadable role map) is an error naming the variable, never a silent "off".
 */
export function ssoConfigFrom(e: Env, clientSecret: string | undefined): SsoConfig | null {
  if (!e.FOF_OIDC_ISSUER) return null;
  const problems: string[] = [];
  if (!e.FOF_OIDC_CLIENT_ID) problems.push("FOF_OIDC_CLIENT_ID is required with FOF_OIDC_ISSUER");
  let roleMap = new Map<string, Role>();
  if (e.FOF_OIDC_ROLE_MAP) {
    let json: unknown;
    try {
      json = JSON.parse(e.FOF_OIDC_ROLE_MAP);
    } catch {
      problems.push('FOF_OIDC_ROLE_MAP must be a JSON object {"group": "role"}');
    }
    if (json !== undefined) {
      const parsed = roleMapSchema.safeParse(json);
      if (parsed.success) roleMap = new Map(Object.entries(parsed.data));
      else problems.push(`FOF_OIDC_ROLE_MAP ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
  }
  const fallback = e.FOF_OIDC_DEFAULT_ROLE.trim();
  const defaultRole = fallback === "none" ? null : (ROLES as readonly string[]).includes(fallback) ? (fallback as Role) : undefined;
  if (defaultRole === undefined) problems.push(`FOF_OIDC_DEFAULT_ROLE must be "none" or a role: ${ROLES.join(", ")}`);
  if (!/^[\w-]+(\.[\w-]+)*$/.test(e.FOF_OIDC_GROUPS_CLAIM)) problems.push("FOF_OIDC_GROUPS_CLAIM must be a claim name or a dotted path");
  if (problems.length) throw new Error(`Invalid single sign-on settings: ${problems.join("; ")}`);
  const issuer = e.FOF_OIDC_ISSUER;
  const scopes = [...new Set(["openid", ...e.FOF_OIDC_SCOPES.split(/[\s,]+/).filter(Boolean)])];
  return {
    name: e.FOF_OIDC_NAME,
    issuer,
    discoveryUrl: `${issuerKey(issuer)}/.well-known/openid-configuration`,
    clientId: e.FOF_OIDC_CLIENT_ID!,
    clientSecret,
    scopes,
    allowedDomains: (e.FOF_OIDC_ALLOWED_DOMAINS ?? "")
      .split(",")
      .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
      .filter(Boolean),
    groupsClaim: e.FOF_OIDC_GROUPS_CLAIM,
    roleMap,
    defaultRole: defaultRole ?? null,
    jit: e.FOF_OIDC_JIT === "on",
    linking: e.FOF_OIDC_LINKING === "verified",
    remapPasswordAccounts: e.FOF_OIDC_REMAP_PASSWORD_ACCOUNTS === "on",
    passwordSignIn: e.FOF_PASSWORD_SIGN_IN === "on",
  };
}

/** The groups a profile names under `claim` (a dotted path; a string or a list of strings), at most MAX_GROUPS. */
export function groupsOf(profile: Record<string, unknown>, claim: string): string[] {
  let value: unknown = profile;
  for (const key of claim.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.hasOwn(value, key)) return [];
    value = (value as Record<string, unknown>)[key];
  }
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  return list.filter((g): g is string => typeof g === "string" && g.length > 0 && g.length <= 400).slice(0, MAX_GROUPS);
}

/** The role a person's groups give: of every mapped role, the first in the role table (admin before runner …); else the default. */
export function roleFor(groups: readonly string[], config: Pick<SsoConfig, "roleMap" | "defaultRole">): Role | null {
  const mapped = new Set(groups.flatMap((g) => (config.roleMap.has(g) ? [config.roleMap.get(g)!] : [])));
  return ROLES.find((r) => mapped.has(r)) ?? config.defaultRole;
}

/** Whether an email's domain may sign in (exact domain match; no list: any). */
export function domainAllowed(email: string, config: Pick<SsoConfig, "allowedDomains">): boolean {
  if (config.allowedDomains.length === 0) return true;
  const at = email.lastIndexOf("@");
  return at > 0 && config.allowedDomains.includes(email.slice(at + 1).toLowerCase());
}

/** Why a sign-in was refused: the code travels in the redirect to the sign-in page, which words it (lib/auth/sso-messages.ts). */
export type SsoRefusal =
  | "sso_domain_refused"
  | "sso_no_role"
  | "sso_no_account"
  | "sso_account_disabled"
  | "sso_no_email"
  | "sso_email_unverified"
  | "sso_link_off"
  | "sso_link_changed";

export type SsoDecision = { ok: true; role: Role; groups: string[] } | { ok: false; code: SsoRefusal; groups: string[] };

/** What better-auth is about to do with an identity: make an account, join it to an existing one, or sign in to its own. */
export type SsoAction = "create-user" | "link-account" | "sign-in";

/**
 * What a sign-in with this profile gets: refused for a missing email, an address the provider does not say is
 * verified (the domain list and any join by address rest on it), a domain not allowed, a new person while
 * just-in-time accounts are off, a join to an existing account while linking is off, or when the groups give no role
 * (and there is no default); else the role.
 */
export function decide(
  profile: Record<string, unknown>,
  who: { email: string | undefined; emailVerified: boolean },
  action: SsoAction,
  config: SsoConfig,
): SsoDecision {
  const groups = groupsOf(profile, config.groupsClaim);
  const email = who.email;
  if (!email) return { ok: false, code: "sso_no_email", groups };
  if (!who.emailVerified) return { ok: false, code: "sso_email_unverified", groups };
  if (!domainAllowed(email, config)) return { ok: false, code: "sso_domain_refused", groups };
  if (action === "create-user" && !config.jit) return { ok: false, code: "sso_no_account", groups };
  if (action === "link-account" && !config.linking) return { ok: false, code: "sso_link_off", groups };
  const role = roleFor(groups, config);
  if (!role) return { ok: false, code: "sso_no_role", groups };
  return { ok: true, role, groups };
}

// Single sign-on over OpenID Connect through better-auth's generic OAuth plugin (authorization code + PKCE, state
// and nonce checked, the ID token verified against the issuer's keys by the plugin). What is ours: the issuer is
// checked against the outbound policy and its discovery document must name exactly the configured issuer before the
// provider is offered; the groups claim is read from the verified ID token and the userinfo answer; and each sign-in
// is decided (domain, just-in-time account, role) and applied (role re-mapped, tokens cut, audited). Server-only.
import { AsyncLocalStorage } from "node:async_hooks";
import dns from "node:dns/promises";
import { z } from "zod";
import { decodeJwt } from "jose";
import type { GenericOAuthConfig, GenericOAuthUserInfo } from "better-auth/plugins/generic-oauth";
import { env, readSecret } from "../env";
import { createHttpFetch } from "../providers/http-fetch";
import { checkUrl, currentPolicy, OutboundRefusedError, targetOf } from "../providers/outbound";
import { issuerKey, ssoConfigFrom, type SsoAction, type SsoConfig, type SsoDecision } from "./sso-config";
import { SSO_PROVIDER_ID } from "./sso-messages";

/** Discovery and userinfo answers are small; a hostile endpoint cannot make us read more. */
const ssoFetch = createHttpFetch({ maxBytes: 1024 * 1024 });
const DISCOVERY_TIMEOUT_MS = 10_000;
/** An unreachable issuer is asked again at most this often (the sign-in page and each sign-in start ask). */
const RETRY_MS = 30_000;

const discoverySchema = z.object({
  issuer: z.string().max(2000),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
});

export type SsoState =
  | { status: "off" }
  | { status: "ready"; config: SsoConfig; userinfoUrl: string | undefined }
  /** not offered, and why (an operator's message: the sign-in page shows it) */
  | { status: "refused"; config: SsoConfig; message: string }
  /** the issuer did not answer: asked again on demand */
  | { status: "unreachable"; config: SsoConfig; message: string; at: number };

const g = globalThis as unknown as { __fofSso?: SsoState };

/** Refuses a URL whose host is (or resolves to) an address the outbound policy does not allow. */
async function assertAllowed(raw: string): Promise<void> {
  const url = new URL(raw);
  const policy = currentPolicy();
  checkUrl(url, policy);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  for (const a of await dns.lookup(host, { all: true }))
    if (!policy.allows(url.hostname, a.address, targetOf(url)))
      throw new OutboundRefusedError(
        `${url.host} (${a.address}) is a private, loopback or link-local address: an operator may allow it with FOF_ALLOWED_ENDPOINTS`,
      );
}

/** Checks an issuer: the outbound policy, its discovery document, the issuer it names, its endpoints. */
export async function checkIssuer(config: SsoConfig): Promise<SsoState> {
  try {
    await assertAllowed(config.discoveryUrl);
  } catch (e) {
    return { status: "refused", config, message: `single sign-on is off: the issuer ${config.issuer} is refused: ${(e as Error).message}` };
  }
  let doc: z.infer<typeof discoverySchema>;
  try {
    const res = await ssoFetch(config.discoveryUrl, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status} from ${config.discoveryUrl}`);
    const parsed = discoverySchema.safeParse(await res.json());
    if (!parsed.success)
      return { status: "refused", config, message: `single sign-on is off: ${config.discoveryUrl} is not an OpenID Connect discovery document` };
    doc = parsed.data;
  } catch (e) {
    return { status: "unreachable", config, message: `single sign-on is unavailable: ${(e as Error).message}`, at: Date.now() };
  }
  // OpenID Connect Discovery 1.0 §4.3: the issuer a document names must be the one it was fetched for; a mismatch
  // is a misconfiguration or an impersonation, never followed.
  if (issuerKey(doc.issuer) !== issuerKey(config.issuer))
    return {
      status: "refused",
      config,
      message: `single sign-on is off: ${config.discoveryUrl} names the issuer ${doc.issuer.slice(0, 200)}, not ${config.issuer}`,
    };
  try {
    for (const u of [doc.authorization_endpoint, doc.token_endpoint, doc.jwks_uri, ...(doc.userinfo_endpoint ? [doc.userinfo_endpoint] : [])])
      await assertAllowed(u);
  } catch (e) {
    return { status: "refused", config, message: `single sign-on is off: the issuer's endpoints are refused: ${(e as Error).message}` };
  }
  return { status: "ready", config, userinfoUrl: doc.userinfo_endpoint };
}

/**
 * Reads the settings and checks the issuer (policy, discovery, issuer match) — on server start, before better-auth
 * is created (instrumentation-node.ts), so a refused issuer is never contacted by the plugin either. Again on demand
 * while the issuer was unreachable.
 */
export async function prepareSso(): Promise<SsoState> {
  const config = ssoConfigFrom(env(), readSecret("FOF_OIDC_CLIENT_SECRET"));
  const state = config ? await checkIssuer(config) : ({ status: "off" } as const);
  g.__fofSso = state;
  if (state.status === "refused" || state.status === "unreachable") console.error(`[auth] ${state.message}`);
  return state;
}

/** The state as last checked; an unreachable issuer is asked again (at most every RETRY_MS). */
export async function ssoState(): Promise<SsoState> {
  const s = g.__fofSso;
  if (!s) return { status: "off" };
  if (s.status === "unreachable" && Date.now() - s.at > RETRY_MS) return prepareSso();
  return s;
}

/** What better-auth is given at creation: the provider when the issuer passed the policy check (else nothing). */
export function ssoPluginConfig(): GenericOAuthConfig | null {
  const s = g.__fofSso;
  if (!s || s.status === "off" || s.status === "refused") return null;
  const c = s.config;
  return {
    providerId: SSO_PROVIDER_ID,
    name: c.name,
    discoveryUrl: c.discoveryUrl,
    // Without the issuer's keys the ID token could not be verified: then the provider is not registered at all.
    requireIdTokenVerification: true,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    tokenEndpointAuth: c.clientSecret ? undefined : { method: "none" },
    scopes: c.scopes,
    pkce: true,
    disableProviderLogout: true,
    getUserInfo: (tokens) => profileOf(tokens.idToken, tokens.accessToken),
  };
}

/**
 * The person as the provider describes them: the ID token's claims (verified by the plugin before this is called)
 * joined with the userinfo answer (where many providers put groups); a userinfo answer about another subject is
 * refused (OpenID Connect Core §5.3.2).
 */
async function profileOf(idToken: string | undefined, accessToken: string | undefined): Promise<GenericOAuthUserInfo | null> {
  if (!idToken) return null;
  const claims = decodeJwt(idToken) as Record<string, unknown>;
  const s = g.__fofSso;
  let info: Record<string, unknown> = {};
  if (s?.status === "ready" && s.userinfoUrl && accessToken) {
    await assertAllowed(s.userinfoUrl);
    const res = await ssoFetch(s.userinfoUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as unknown;
    if (!body || typeof body !== "object" || Array.isArray(body)) return null;
    info = body as Record<string, unknown>;
    if (String(info.sub) !== String(claims.sub)) return null;
  }
  const p = { ...claims, ...info };
  const str = (v: unknown) => (typeof v === "string" && v.length <= 320 ? v : undefined);
  const verified = (v: unknown) => v === true || v === "true";
  // An address is verified only by an answer that names that address: the userinfo answer's address if it names
  // one, else the ID token's; verified when an answer naming that very address says so. Two answers naming different
  // addresses vouch for neither (an attacker's provider account could otherwise pair its own verified address in the
  // ID token with an admin's address in userinfo).
  const idEmail = str(claims.email)?.trim().toLowerCase();
  const infoEmail = str(info.email)?.trim().toLowerCase();
  const email = infoEmail ?? idEmail;
  const emailVerified =
    email !== undefined &&
    !(idEmail !== undefined && infoEmail !== undefined && idEmail !== infoEmail) &&
    ((infoEmail === email && verified(info.email_verified)) || (idEmail === email && verified(claims.email_verified)));
  return {
    ...p,
    id: String(claims.sub),
    sub: String(claims.sub),
    email,
    emailVerified,
    name: str(p.name) ?? str(p.preferred_username) ?? email ?? String(claims.sub),
    image: undefined,
  };
}

/** One sign-in's decision, from the identity check (validateUserInfo) to the session it starts (lib/auth/server.ts). */
interface SsoRequest {
  decision?: SsoDecision;
  /** what better-auth is doing with the identity: a new account, a join to an existing one, or its own sign-in */
  action?: SsoAction;
  /** the provider's subject (the identity's key with the issuer) */
  subject?: string;
  /** an account with a password kept its role against the groups' (FOF_OIDC_REMAP_PASSWORD_ACCOUNTS off) */
  keptRole?: { role: string; groupsRole: string };
}
// One store per process, on globalThis as the auth instance is: Next.js bundles this module into each route and page,
// and the instance that runs the hooks may come from another bundle than the route that set the store.
const requests = ((globalThis as unknown as { __fofSsoRequests?: AsyncLocalStorage<SsoRequest> }).__fofSsoRequests ??= new AsyncLocalStorage<SsoRequest>());

/** Runs better-auth's handler for one request with room for its sign-in decision. */
export const withSsoRequest = <T>(fn: () => Promise<T>): Promise<T> => requests.run({}, fn);
export const currentSsoRequest = (): SsoRequest | undefined => requests.getStore();

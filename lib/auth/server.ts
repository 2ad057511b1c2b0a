// Authentication through better-auth (sessions, cookies, password hashing, rate-limited sign-in) on our Prisma
// database. Sign-up is closed: accounts come from the first-run setup, invitations, `fof user add` or
// FOF_ADMIN_EMAIL / FOF_ADMIN_PASSWORD. Server-only.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { db } from "../db";
import { logger } from "../log";
import { env } from "../env";
import { publicUrl } from "../core/public-url";
import { audit } from "./audit";
import { accountLockedFor, clearFailures, recordFailure } from "./sign-in-limit";
import { currentSsoRequest, ssoPluginConfig, ssoState } from "./sso";
import { applySsoSignIn, auditSsoCreated, auditSsoLink, ssoNewUserRole, ssoSignInDetails, stampSsoAccount, validateSsoIdentity } from "./sso-apply";
import { SSO_MESSAGES, SSO_PROVIDER_ID } from "./sso-messages";

/** Sessions last a week and are refreshed daily while used; a disabled user's sessions are refused at once. */
const SESSION_DAYS = 7;

/**
 * The secret that signs session cookies: BETTER_AUTH_SECRET when set (a team deployment sets it), else one made on
 * first start and kept in the data directory (owner-only), so the two-command local start needs no setup.
 */
function authSecret(): string {
  const fromEnv = env().BETTER_AUTH_SECRET;
  if (fromEnv) return fromEnv;
  const file = path.join(env().dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(env().dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return readFileSync(file, "utf8").trim();
}

/**
 * Email + password sign-in, unless single sign-on is offered and the operator turned passwords off (never both off:
 * a team whose identity provider is refused could not sign in at all).
 */
export function passwordSignIn(): boolean {
  return env().FOF_PASSWORD_SIGN_IN === "on" || ssoPluginConfig() === null;
}

function createAuth() {
  const url = publicUrl();
  const sso = ssoPluginConfig();
  return betterAuth({
    appName: "FACT-OR-FAIR workbench",
    secret: authSecret(),
    baseURL: url,
    trustedOrigins: [url, ...(env().FOF_TRUSTED_ORIGINS ?? [])],
    database: prismaAdapter(db(), { provider: "sqlite" }),
    emailAndPassword: { enabled: passwordSignIn(), disableSignUp: true, minPasswordLength: 10, maxPasswordLength: 256 },
    // A sign-on joins an existing account of the same address only when the provider says the address is verified
    // and linking is on: decided in validateSsoIdentity (lib/auth/sso-apply.ts), which is why the provider is "trusted"
    // here — so that every join, refused or made, reaches that decision and its audit row rather than better-auth's
    // silent refusal. Its tokens are not needed after sign-in: stored encrypted.
    account: {
      accountLinking: { trustedProviders: [SSO_PROVIDER_ID] },
      encryptOAuthTokens: true,
      additionalFields: { linkedAt: { type: "date", required: false, input: false } },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 3600,
      updateAge: 24 * 3600,
      // The identity a single sign-on session was opened through: removing it ends the session (a cascade).
      additionalFields: { ssoAccountId: { type: "string", required: false, input: false } },
    },
    user: {
      // Single sign-on identities are decided before any account is made or linked (lib/auth/sso-apply.ts).
      validateUserInfo: (data, ctx) => validateSsoIdentity(data, clientIp(ctx.headers)),
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "viewer", input: false },
        disabled: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    // Counters in the database: every process shares them. Sign-in: 5 tries a minute per client; single sign-on starts
    // 30 (a team behind one address signs on in the morning; the provider checks the person).
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: { "/sign-in/email": { window: 60, max: 5 }, "/sign-in/social": { window: 60, max: 30 } },
    },
    advanced: {
      // Secure cookies whenever the public address is https (behind the TLS proxy); httpOnly and SameSite=Lax always.
      useSecureCookies: url.startsWith("https://"),
      cookiePrefix: "fof",
      // The serving process (scripts/serve.ts) replaces X-Forwarded-For with the one address it resolved from the
      // socket and FOF_TRUSTED_PROXIES: a client cannot choose its own rate-limit bucket or audit address.
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
    },
    // Errors that are not the library's own answers (a database busy with another writer, a bug) reach the route
    // (app/api/auth/[...all]/route.ts), which maps them like every other route: contention is 503 + Retry-After.
    // A single sign-on that ends without a session goes back to the sign-in page, which words its code.
    onAPIError: { throw: true, errorURL: `${url}/sign-in` },
    // The library's own log lines (a failed state check, a provider's refusal) join ours, structured and levelled.
    logger: {
      log: (level, message, ...args) => logger[level]({ component: "better-auth", details: args.map((a) => (a instanceof Error ? a.message : a)) }, message),
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-in/email") {
          const email = typeof ctx.body?.email === "string" ? ctx.body.email.slice(0, 320) : "";
          const wait = email ? await accountLockedFor(db(), email) : 0;
          if (wait > 0)
            throw new APIError("TOO_MANY_REQUESTS", {
              message: `Too many failed sign-ins for this account: try again in ${Math.ceil(wait / 60_000)} minute(s).`,
            });
        }
        if (ctx.path === "/sign-in/social") {
          // Only the authorization-code flow of the configured provider: no ID tokens posted by the client, no
          // scopes of its own.
          const body = (ctx.body ?? {}) as Record<string, unknown>;
          if (body.provider !== SSO_PROVIDER_ID || body.idToken !== undefined || body.scopes !== undefined || body.requestSignUp !== undefined)
            throw new APIError("BAD_REQUEST", { message: "single sign-on takes only the configured provider" });
          if ((await ssoState()).status !== "ready")
            throw new APIError("SERVICE_UNAVAILABLE", { code: "sso_unavailable", message: SSO_MESSAGES.sso_unavailable });
        }
        if (ctx.path === "/sign-out") {
          const session = await getSessionFromCtx(ctx).catch(() => null);
          if (session) await audit(db(), { userId: session.user.id, action: "user.sign-out", ip: clientIp(ctx.headers) });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-in/email") return;
        const email = typeof ctx.body?.email === "string" ? ctx.body.email.slice(0, 320) : "";
        if (!email) return;
        if (isAPIError(ctx.context.returned)) {
          if ((ctx.context.returned as APIError).statusCode === 429) return;
          await recordFailure(db(), email);
          const user = await db().user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
          await audit(db(), { userId: user?.id ?? null, action: "user.sign-in-failed", details: { email }, ip: clientIp(ctx.headers) });
        } else await clearFailures(db(), email);
      }),
    },
    databaseHooks: {
      account: {
        create: {
          before: async (account) => ({ data: stampSsoAccount(account) }),
          after: async (account, ctx) => auditSsoLink(account, clientIp(ctx?.headers)),
        },
      },
      user: {
        create: {
          // A just-in-time account gets the role its groups map to (decided in validateUserInfo, same request).
          before: async (user) => {
            const role = ssoNewUserRole();
            return role ? { data: { ...user, role } } : { data: user };
          },
          after: async (user, ctx) => auditSsoCreated(user, clientIp(ctx?.headers)),
        },
      },
      session: {
        create: {
          // A disabled account cannot start a session (sign-in fails like a wrong password: no enumeration). A single
          // sign-on is told so (the provider has vouched for the person), and its role follows the groups.
          before: async (session, ctx) => {
            if (currentSsoRequest()?.decision) {
              const through = await applySsoSignIn(session.userId, clientIp(ctx?.headers));
              if (!through) return false;
              return { data: { ...session, ssoAccountId: through.ssoAccountId } };
            }
            const user = await db().user.findUnique({ where: { id: session.userId }, select: { disabled: true } });
            if (!user || user.disabled) return false;
            return { data: session };
          },
          after: async (session) => {
            const sso = ssoSignInDetails();
            const via = sso ? { details: sso } : {};
            await audit(db(), { userId: session.userId, action: "user.sign-in", ip: session.ipAddress ?? null, ...via });
          },
        },
      },
    },
    plugins: [nextCookies(), ...(sso ? [genericOAuth({ config: [sso] })] : [])],
  });
}

/** The client address the serving process resolved (scripts/serve.ts sets exactly one). */
function clientIp(headers: Headers | undefined): string | null {
  return headers?.get("x-forwarded-for")?.split(",")[0]?.trim().slice(0, 64) || null;
}

const g = globalThis as unknown as { __fofAuth?: ReturnType<typeof createAuth> };

/** The one better-auth instance of this process (created on first use). */
export function auth() {
  return (g.__fofAuth ??= createAuth());
}

// Authentication through better-auth (sessions, cookies, password hashing, rate-limited sign-in) on our Prisma
// database. Sign-up is closed: accounts come from the first-run setup, invitations, `fof user add` or
// FOF_ADMIN_EMAIL / FOF_ADMIN_PASSWORD. Server-only.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { db } from "../db";
import { env } from "../env";
import { audit } from "./audit";
import { accountLockedFor, clearFailures, recordFailure } from "./sign-in-limit";

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

/** Where the app is reached: FOF_PUBLIC_URL behind a proxy, else the address it listens on. */
export function publicUrl(): string {
  const e = env();
  return e.FOF_PUBLIC_URL ?? `http://${e.HOST === "0.0.0.0" ? "127.0.0.1" : e.HOST}:${e.PORT}`;
}

function createAuth() {
  const url = publicUrl();
  return betterAuth({
    appName: "FACT-OR-FAIR workbench",
    secret: authSecret(),
    baseURL: url,
    trustedOrigins: [url, ...(env().FOF_TRUSTED_ORIGINS ?? [])],
    database: prismaAdapter(db(), { provider: "sqlite" }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 10, maxPasswordLength: 256 },
    session: { expiresIn: SESSION_DAYS * 24 * 3600, updateAge: 24 * 3600 },
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "viewer", input: false },
        disabled: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    // Counters in the database: every process shares them. Sign-in: 5 tries a minute per client.
    rateLimit: { enabled: true, storage: "database", window: 60, max: 100, customRules: { "/sign-in/email": { window: 60, max: 5 } } },
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
    onAPIError: { throw: true },
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
      session: {
        create: {
          // A disabled account cannot start a session (sign-in fails like a wrong password: no enumeration).
          before: async (session) => {
            const user = await db().user.findUnique({ where: { id: session.userId }, select: { disabled: true } });
            if (!user || user.disabled) return false;
            return { data: session };
          },
          after: async (session) => {
            await audit(db(), { userId: session.userId, action: "user.sign-in", ip: session.ipAddress ?? null });
          },
        },
      },
    },
    plugins: [nextCookies()],
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

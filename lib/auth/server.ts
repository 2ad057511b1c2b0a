// Authentication through better-auth (sessions, cookies, password hashing, rate-limited sign-in) on our Prisma
// database. Sign-up is closed: accounts come from the first-run setup, invitations, `fof user add` or
// FOF_ADMIN_EMAIL / FOF_ADMIN_PASSWORD. Server-only.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { db } from "../db";
import { env } from "../env";
import { audit } from "./audit";

/** Sessions last a week and are refreshed daily while used; a disabled user's sessions are refused at once. */
export const SESSION_DAYS = 7;

/**
 * The secret that signs session cookies: BETTER_AUTH_SECRET when set (a team deployment sets it), else one made on
 * first start and kept in the data directory (owner-only), so the two-command local start needs no setup.
 */
export function authSecret(): string {
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
      // next start sets X-Forwarded-For to the client's address; a TLS proxy in front must set it too (README).
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
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

const g = globalThis as unknown as { __fofAuth?: ReturnType<typeof createAuth> };

/** The one better-auth instance of this process (created on first use). */
export function auth() {
  return (g.__fofAuth ??= createAuth());
}

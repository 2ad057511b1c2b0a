// First run: with no account yet, the setup page creates the first admin — from the machine itself (loopback) or
// with the one-time setup token the server prints in its log. Server-only.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clientFromHeaders } from "./client-address";

const file = (dataDir: string) => path.join(dataDir, "setup-token");

/** The setup token (made once, kept owner-only in the data directory until the first admin exists). */
export function setupToken(dataDir: string): string {
  if (existsSync(file(dataDir))) return readFileSync(file(dataDir), "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(24).toString("base64url");
  writeFileSync(file(dataDir), token, { mode: 0o600 });
  return token;
}

export function setupTokenMatches(dataDir: string, given: string | null | undefined): boolean {
  if (!given || !existsSync(file(dataDir))) return false;
  const a = Buffer.from(readFileSync(file(dataDir), "utf8").trim());
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function forgetSetupToken(dataDir: string) {
  rmSync(file(dataDir), { force: true });
}

/**
 * Whether a request comes from this machine, as the serving process decided it from the socket (scripts/serve.ts,
 * lib/auth/client-address.ts): never from headers a client could write. Under `next dev` nothing is local: the
 * setup token is needed.
 */
export function isFromThisMachine(headers: Headers): boolean {
  return clientFromHeaders(headers)?.local === true;
}

// First run: with no account yet, the setup page creates the first admin — from the machine itself (loopback) or
// with the one-time setup token the server prints in its log. Server-only.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

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

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+|localhost)$/;

/** Whether a request comes from this machine: the client address and the host it asked for are both loopback. */
export function isLoopbackRequest(headers: Headers): boolean {
  const client = (headers.get("x-forwarded-for") ?? "").split(",")[0].trim();
  const host = (headers.get("host") ?? "").replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  return LOOPBACK.test(client) && LOOPBACK.test(host);
}

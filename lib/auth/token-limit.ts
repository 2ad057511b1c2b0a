// Failed bearer-token lookups per client address, like sign-in's per-account limit (./sign-in-limit.ts): a token is 32
// random bytes, so guessing is hopeless, but each guess still costs the server a hash and a database read, and a
// flood of them is an attack worth refusing. After TOKEN_MAX_FAILURES failures within TOKEN_WINDOW_MS a client's
// further failures are answered 429 for the rest of the window; a valid token from the same address keeps working
// (one guessing client must not lock out a scraper or a CI job behind the same address). Counted in the shared
// RateLimit table (every process sees them); a valid token never writes anything here.
import { createHash, randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";

const TOKEN_WINDOW_MS = 5 * 60_000;
export const TOKEN_MAX_FAILURES = 30;

const keyOf = (address: string | null) =>
  `token-failures:${createHash("sha256")
    .update(address ?? "unknown")
    .digest("hex")}`;

/** Milliseconds until this client may try a token again, or 0 when it may now. */
export async function tokenAttemptsBlockedFor(prisma: PrismaClient, address: string | null, now = Date.now()): Promise<number> {
  const row = await prisma.rateLimit.findUnique({ where: { key: keyOf(address) }, select: { count: true, lastRequest: true } });
  if (!row) return 0;
  const since = now - Number(row.lastRequest);
  return since < TOKEN_WINDOW_MS && row.count >= TOKEN_MAX_FAILURES ? TOKEN_WINDOW_MS - since : 0;
}

/** Counts one failed lookup (a new window starts when the last one has passed; later failures do not extend it). */
export async function recordTokenFailure(prisma: PrismaClient, address: string | null, now = Date.now()): Promise<void> {
  const key = keyOf(address);
  const row = await prisma.rateLimit.findUnique({ where: { key }, select: { lastRequest: true } });
  if (!row || now - Number(row.lastRequest) >= TOKEN_WINDOW_MS)
    await prisma.rateLimit.upsert({
      where: { key },
      create: { id: randomUUID(), key, count: 1, lastRequest: BigInt(now) },
      update: { count: 1, lastRequest: BigInt(now) },
    });
  else await prisma.rateLimit.update({ where: { key }, data: { count: { increment: 1 } } });
}

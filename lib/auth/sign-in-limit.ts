// Sign-in attempts per account, on top of better-auth's per-client limit: rotating client addresses (or a botnet)
// must not buy unlimited password guesses against one account. Failures are counted per email in the shared
// RateLimit table (every process sees them); after MAX_FAILURES within WINDOW_MS the account answers 429 until the
// window passes, whatever the password. A successful sign-in clears the count.
import { createHash, randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";

const ACCOUNT_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_MAX_FAILURES = 10;

const keyOf = (email: string) => `account-sign-in:${createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}`;

/** Milliseconds until this account may try again, or 0 when it may now. */
export async function accountLockedFor(prisma: PrismaClient, email: string, now = Date.now()): Promise<number> {
  const row = await prisma.rateLimit.findUnique({ where: { key: keyOf(email) } });
  if (!row) return 0;
  const since = Number(row.lastRequest);
  if (now - since >= ACCOUNT_WINDOW_MS) return 0;
  return row.count >= ACCOUNT_MAX_FAILURES ? ACCOUNT_WINDOW_MS - (now - since) : 0;
}

/** Counts one failed attempt (a new window starts when the last one has passed). */
export async function recordFailure(prisma: PrismaClient, email: string, now = Date.now()): Promise<void> {
  const key = keyOf(email);
  const row = await prisma.rateLimit.findUnique({ where: { key } });
  if (!row || now - Number(row.lastRequest) >= ACCOUNT_WINDOW_MS) {
    await prisma.rateLimit.upsert({
      where: { key },
      create: { id: randomUUID(), key, count: 1, lastRequest: BigInt(now) },
      update: { count: 1, lastRequest: BigInt(now) },
    });
  } else {
    // The window runs from its first failure: later failures add to the count without extending it.
    await prisma.rateLimit.update({ where: { key }, data: { count: { increment: 1 } } });
  }
}

export async function clearFailures(prisma: PrismaClient, email: string): Promise<void> {
  await prisma.rateLimit.deleteMany({ where: { key: keyOf(email) } });
}

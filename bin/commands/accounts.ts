// What the account commands (`fof user`, `fof token`) share: the database opened (migrated) for one command and
// closed after it, an account found by its email, and writes that ride out another writer. Disabling or demoting an
// account is an operator's security response: it must land while the server's worker is busy writing, so every
// statement or transaction is retried through contention (each is safe to run again: it failed whole).
import { db, migrateAndSeed } from "../../lib/db";
import { isContention, withContentionRetry } from "../../lib/db/retry";
import { findUserByEmail } from "../../lib/auth/users";

/** How long an account command keeps trying through another writer's lock before it gives up, saying so. */
const PATIENCE_MS = 120_000;

/** Runs one database step, retried through contention; a lock held past the patience is said plainly. */
export async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await withContentionRetry(fn, { maxMs: PATIENCE_MS });
  } catch (e) {
    if (isContention(e))
      throw new Error(`the database stayed busy for ${PATIENCE_MS / 1000} s (another process holds its write lock): nothing was changed; try again`);
    throw e;
  }
}

export async function accountByEmail(email: string) {
  const u = await retrying(() => findUserByEmail(db(), email));
  if (!u) throw new Error(`no account for ${email}`);
  return u;
}

export async function withDb<T>(fn: () => Promise<T>): Promise<T> {
  await retrying(() => migrateAndSeed({ quiet: true }));
  try {
    return await fn();
  } finally {
    await db().$disconnect();
  }
}

// What the account commands (`fof user`, `fof token`) share: the database opened (migrated) for one command and
// closed after it, and an account found by its email.
import { db, migrateAndSeed } from "../../lib/db";
import { findUserByEmail } from "../../lib/auth/users";

export async function accountByEmail(email: string) {
  const u = await findUserByEmail(db(), email);
  if (!u) throw new Error(`no account for ${email}`);
  return u;
}

export async function withDb<T>(fn: () => Promise<T>): Promise<T> {
  await migrateAndSeed({ quiet: true });
  try {
    return await fn();
  } finally {
    await db().$disconnect();
  }
}

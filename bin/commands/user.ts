// `fof user add|list|role|disable|enable|invite|reset`: account management on the server (the machine's shell is the
// trust boundary here). Passwords are read from FOF_USER_PASSWORD or standard input, never from arguments (they
// would show in `ps` and shell history). Changes are audited as made by "server".
import { db } from "../../lib/db";
import { createInvitation, createResetLink } from "../../lib/auth/invitations";
import { publicUrl } from "../../lib/core/public-url";
import { ROLES, isRole, type Role } from "../../lib/auth/roles";
import { allUsers, createUser, firstAdmin, setDisabled, setRole, setSpendingLimit } from "../../lib/auth/users";
import { readSecret } from "../../lib/env";
import { accountByEmail, retrying, withDb } from "./accounts";
import { unlinkSso } from "../../lib/auth/sso-links";

async function readPassword(): Promise<string> {
  const fromEnv = readSecret("FOF_USER_PASSWORD");
  if (fromEnv) return fromEnv;
  if (process.stdin.isTTY) throw new Error("set FOF_USER_PASSWORD or pipe the password on standard input");
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

function role(value: string): Role {
  if (!isRole(value)) throw new Error(`unknown role "${value}": one of ${ROLES.join(", ")}`);
  return value;
}

export const userCommands = {
  add: (email: string, opts: { role: string; name?: string; limit?: string }) =>
    withDb(async () => {
      const password = await readPassword();
      const u = await retrying(() => createUser(db(), { email, name: opts.name ?? email.split("@")[0], password, role: role(opts.role) }));
      if (opts.limit !== undefined) await retrying(() => setSpendingLimit(db(), null, u.id, Number(opts.limit)));
      process.stdout.write(JSON.stringify({ id: u.id, email: u.email, role: u.role }) + "\n");
    }),
  list: () =>
    withDb(async () => {
      for await (const u of allUsers(db()))
        process.stdout.write(
          `${u.email}\t${u.role}${u.disabled ? "\tdisabled" : ""}${u.accounts.some((a) => a.providerId === "oidc") ? (u.accounts.some((a) => a.linkedAt) ? "\tsso (joined by address)" : "\tsso") : ""}${u.spendingLimitUsd !== null ? `\tlimit $${u.spendingLimitUsd}` : ""}${u.placeholder ? "\tplaceholder" : ""}\n`,
        );
    }),
  role: (email: string, r: string) =>
    withDb(async () => {
      const { id } = await accountByEmail(email);
      await retrying(() => setRole(db(), null, id, role(r)));
    }),
  disable: (email: string) =>
    withDb(async () => {
      const { id } = await accountByEmail(email);
      await retrying(() => setDisabled(db(), null, id, true));
    }),
  enable: (email: string) =>
    withDb(async () => {
      const { id } = await accountByEmail(email);
      await retrying(() => setDisabled(db(), null, id, false));
    }),
  limit: (email: string, usd: string) =>
    withDb(async () => {
      const { id } = await accountByEmail(email);
      await retrying(() => setSpendingLimit(db(), null, id, usd === "none" ? null : Number(usd)));
    }),
  invite: (opts: { role: string; email?: string }) =>
    withDb(async () => {
      const admin = await retrying(() => firstAdmin(db()));
      if (!admin) throw new Error("create an admin first (fof user add --role admin)");
      const inv = await retrying(() => createInvitation(db(), admin.id, { role: role(opts.role), email: opts.email ?? null }));
      process.stdout.write(`${publicUrl()}${inv.path}\n`);
    }),
  /** Removes an account's single sign-on identities: the sessions opened through them end (audited as the server). */
  unlink: (email: string) =>
    withDb(async () => {
      const { id } = await accountByEmail(email);
      const { identities, sessions } = await retrying(() => unlinkSso(db(), null, id));
      process.stdout.write(JSON.stringify({ email, identitiesRemoved: identities, sessionsEnded: sessions }) + "\n");
    }),
  reset: (email: string) =>
    withDb(async () => {
      const { id } = await accountByEmail(email);
      const link = await retrying(() => createResetLink(db(), null, id));
      process.stdout.write(`${publicUrl()}${link.path}\n`);
    }),
};

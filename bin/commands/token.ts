// `fof token create|list|revoke`: personal access tokens on the server (the machine's shell is the trust boundary,
// as for `fof user`). `create` prints the secret alone on its last line, once: a CI job stores it as a secret.
import { db } from "../../lib/db";
import { isRole, ROLES } from "../../lib/auth/roles";
import { allTokens, createToken, revokeToken } from "../../lib/auth/tokens";
import { accountByEmail, retrying, withDb } from "./accounts";

const state = (t: { revokedAt: Date | null; expiresAt: Date | null }) =>
  t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= new Date() ? "expired" : "live";

export const tokenCommands = {
  create: (opts: { email: string; name: string; expiresDays?: string; role?: string }) =>
    withDb(async () => {
      if (opts.role !== undefined && !isRole(opts.role)) throw new Error(`unknown role "${opts.role}": one of ${ROLES.join(", ")}`);
      const u = await accountByEmail(opts.email);
      const { secret, token } = await retrying(() =>
        createToken(db(), u.id, { name: opts.name, role: opts.role as never, expiresDays: opts.expiresDays }, null),
      );
      process.stderr.write(
        `token "${token.name}" for ${u.email} (${token.role ?? u.role}), expires ${token.expiresAt?.toISOString().slice(0, 10)}: shown once\n`,
      );
      process.stdout.write(`${secret}\n`);
    }),
  list: (opts: { email: string }) =>
    withDb(async () => {
      const u = await accountByEmail(opts.email);
      for await (const t of allTokens(db(), u.id))
        process.stdout.write(
          [
            t.name,
            `${t.prefix}…`,
            t.role ?? u.role,
            state(t),
            `expires ${t.expiresAt?.toISOString().slice(0, 10) ?? "never"}`,
            `last used ${t.lastUsedAt?.toISOString().slice(0, 10) ?? "never"}`,
          ].join("\t") + "\n",
        );
    }),
  revoke: (opts: { email: string; name: string }) =>
    withDb(async () => {
      const u = await accountByEmail(opts.email);
      await retrying(() => revokeToken(db(), u.id, { name: opts.name }, null));
      process.stderr.write(`revoked "${opts.name}" of ${u.email}\n`);
    }),
};

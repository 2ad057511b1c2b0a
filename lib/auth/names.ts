// Who an id is, for display: annotators, deleters and drawers are stored by account id; pages show the name.
import type { PrismaClient } from "../../generated/prisma/client";

/** "Name (email)" per account id; an id that is no account (older name-only data) stands for itself. */
export async function displayNames(prisma: Pick<PrismaClient, "user">, ids: Iterable<string | null | undefined>): Promise<Map<string, string>> {
  const wanted = [...new Set([...ids].filter((x): x is string => !!x))];
  const users = wanted.length
    ? await prisma.user.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true, email: true, placeholder: true } })
    : [];
  const out = new Map(wanted.map((id) => [id, id]));
  for (const u of users) out.set(u.id, u.placeholder ? u.name : `${u.name} (${u.email})`);
  return out;
}

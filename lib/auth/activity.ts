// Reading the audit log for the Activity page: filtered by user, action and date, newest first, cursor pages.
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { AUDIT_ACTIONS } from "./audit";

const ACTIVITY_PAGE_SIZE = 50;

export const activityFilterSchema = z.object({
  userId: z.string().max(64).optional(),
  /** an account by its email (the page's filter field; any number of accounts, no list to pick from) */
  email: z
    .string()
    .trim()
    .max(200)
    .transform((s) => s.toLowerCase())
    .optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  /** id of the last row of the previous page */
  before: z.coerce.number().int().positive().optional(),
});

export async function activity(prisma: PrismaClient, input: z.input<typeof activityFilterSchema>) {
  const f = activityFilterSchema.parse(input);
  const at = {
    ...(f.from ? { gte: new Date(`${f.from}T00:00:00Z`) } : {}),
    ...(f.to ? { lt: new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 24 * 3600_000) } : {}),
  };
  // An email that names no account matches nothing (never "anyone").
  const byEmail = f.email ? ((await prisma.user.findUnique({ where: { email: f.email }, select: { id: true } }))?.id ?? "-") : undefined;
  const userId = byEmail ?? f.userId;
  const rows = await prisma.auditLog.findMany({
    where: {
      ...(userId ? { userId } : {}),
      ...(f.action ? { action: f.action } : {}),
      ...(f.from || f.to ? { at } : {}),
      ...(f.before ? { id: { lt: f.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: ACTIVITY_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, ACTIVITY_PAGE_SIZE);
  const ids = [...new Set(page.map((r) => r.userId).filter((x): x is string => !!x))];
  const users = new Map((await prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })).map((u) => [u.id, u.email]));
  return {
    filter: f,
    rows: page.map((r) => ({
      ...r,
      at: r.at.toISOString(),
      who: r.userId ? (users.get(r.userId) ?? r.userId) : "server",
      details: JSON.parse(r.detailsJson) as Record<string, unknown>,
    })),
    next: rows.length > ACTIVITY_PAGE_SIZE ? page[page.length - 1].id : null,
  };
}

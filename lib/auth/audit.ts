// The audit trail: one append-only row per thing a person did (sign-in, invitation, role change, model change, run
// launch / pause / resume / cancel with budget, import, assignment, face delete / restore, export). Never updated.
import type { PrismaClient } from "../../generated/prisma/client";

export const AUDIT_ACTIONS = [
  "user.setup",
  "user.sign-in",
  "user.sign-in-failed",
  "user.sign-in-refused",
  "user.sso-create",
  "user.sso-link",
  "user.sso-unlink",
  "user.sign-out",
  "user.create",
  "user.invite",
  "user.join",
  "user.role",
  "user.disable",
  "user.enable",
  "user.limit",
  "user.reset-link",
  "user.password-reset",
  "model.save",
  "model.archive",
  "model.restore",
  "model.delete",
  "run.launch",
  "run.autoLabel",
  "run.pause",
  "run.resume",
  "run.cancel",
  "run.interrupted",
  "run.calls-lost",
  "images.import",
  "assignment.create",
  "face.gold",
  "face.ungold",
  "annotator.exclude",
  "annotator.restore",
  "face.delete",
  "face.restore",
  "face.add",
  "face.label",
  "explanation.read",
  "explanation.gold",
  "judge.start",
  "judge.cancel",
  "faces.classified",
  "images.read",
  "export",
  "data.read",
  "content.review",
  "content.import",
  "content-set.import",
  "content-set.approve",
  "content-set.retire",
  "token.create",
  "token.use",
  "token.revoke",
  "token.narrow",
  "webhook.create",
  "webhook.delete",
  "webhook.redeliver",
] as const;
type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acts: an account, and the personal access token its request came with, if any. */
export interface Actor {
  id: string;
  token?: { id: string; name: string } | null;
  /** the client address the serving process resolved for the request (lib/auth/client-address.ts) */
  address?: string | null;
}

/** The account, token and client address an audit row names for a request's viewer (null: the server itself). */
export function actorOf(viewer: Actor | null | undefined): { userId: string | null; token: { id: string; name: string } | null; ip: string | null } {
  return { userId: viewer?.id ?? null, token: viewer?.token ? { id: viewer.token.id, name: viewer.token.name } : null, ip: viewer?.address ?? null };
}

export interface AuditEntry {
  userId: string | null;
  /** the personal access token the request came with: recorded (its id, and its name in the details) */
  token?: { id: string; name: string } | null;
  action: AuditAction;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
  ip?: string | null;
}

type Tx = Pick<PrismaClient, "auditLog">;

/**
 * Appends a row unless the same account already has one for the same action and target within `withinMs`: reads
 * a page makes repeatedly (raw output while paging, polling) are recorded once per stretch of use, not per request.
 */
export async function auditOnce(tx: Tx, e: AuditEntry, withinMs = 10 * 60_000): Promise<void> {
  const recent = await tx.auditLog.findFirst({
    where: { userId: e.userId, action: e.action, targetType: e.targetType ?? null, targetId: e.targetId ?? null, at: { gte: new Date(Date.now() - withinMs) } },
    select: { id: true },
  });
  if (!recent) await audit(tx, e);
}

/** Appends one audit row (inside the caller's transaction when given one, so the change and its record go together). */
export async function audit(tx: Tx, e: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      userId: e.userId,
      action: e.action,
      targetType: e.targetType ?? null,
      targetId: e.targetId ?? null,
      detailsJson: JSON.stringify({ ...(e.details ?? {}), ...(e.token ? { token: e.token.name } : {}) }),
      tokenId: e.token?.id ?? null,
      ip: e.ip ?? null,
    },
  });
}

// Registering webhooks (admins): a URL and the events it wants, checked against the outbound endpoint policy when
// registered (and again on every delivery: a name may re-resolve); a secret made here and shown once. The delivery
// log lists each delivery with every attempt's response code.
import { randomBytes } from "node:crypto";
import dns from "node:dns/promises";
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError } from "../../core/errors";
import { actorOf, audit, type Actor } from "../../auth/audit";
import { checkUrl, currentPolicy, OutboundRefusedError, targetOf } from "../../providers/outbound";
import { WEBHOOK_EVENTS } from "./events";

const MAX_HOOKS = 50;

const webhookInputSchema = z.object({
  url: z
    .string()
    .trim()
    .max(2000)
    .url("a full URL, e.g. https://ci.example.org/hooks/fof")
    .refine((u) => /^https?:\/\//i.test(u), "http(s) only"),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, "choose at least one event"),
});
export type WebhookInput = z.input<typeof webhookInputSchema>;

/** Refuses a URL the outbound policy would refuse (a private, loopback or link-local address, unless allowed). */
async function assertReachable(url: URL) {
  const policy = currentPolicy();
  try {
    checkUrl(url, policy);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    for (const a of await dns.lookup(host, { all: true }))
      if (!policy.allows(host, a.address, targetOf(url)))
        throw new OutboundRefusedError(`${host} resolves to ${a.address}: a private, loopback or link-local address`);
  } catch (e) {
    if (e instanceof OutboundRefusedError) throw new DomainError("invalid", `${e.message} (an operator may allow it with FOF_ALLOWED_ENDPOINTS)`);
    throw new DomainError("invalid", `${url.hostname} does not resolve: ${(e as Error).message}`);
  }
}

export async function createWebhook(prisma: PrismaClient, input: WebhookInput, by: Actor | null) {
  const { url, events } = webhookInputSchema.parse(input);
  await assertReachable(new URL(url));
  if ((await prisma.webhook.count()) >= MAX_HOOKS) throw new DomainError("conflict", `at most ${MAX_HOOKS} webhooks: delete one first`);
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  const hook = await prisma.webhook.create({ data: { url, eventsJson: JSON.stringify([...new Set(events)]), secret, createdById: by?.id ?? null } });
  await audit(prisma, { ...actorOf(by), action: "webhook.create", targetType: "webhook", targetId: hook.id, details: { url, events } });
  return { id: hook.id, secret };
}

export async function listWebhooks(prisma: PrismaClient) {
  const hooks = await prisma.webhook.findMany({
    orderBy: { createdAt: "desc" },
    select: { id: true, url: true, eventsJson: true, active: true, createdAt: true },
  });
  return hooks.map(({ eventsJson, ...h }) => ({ ...h, events: JSON.parse(eventsJson) as string[] }));
}

export async function deleteWebhook(prisma: PrismaClient, id: string, by: Actor | null) {
  const hook = await prisma.webhook.findUnique({ where: { id }, select: { url: true } });
  if (!hook) throw new DomainError("not_found", "no such webhook");
  await prisma.webhook.delete({ where: { id } });
  await audit(prisma, { ...actorOf(by), action: "webhook.delete", targetType: "webhook", targetId: id, details: { url: hook.url } });
}

/**
 * The delivery log, newest first: each delivery's state and every attempt with its response code or error. Paged by
 * key — `before` a delivery's id, the page of older ones (index (createdAt, id)): a page costs its size at any depth.
 */
export async function deliveryPage(prisma: PrismaClient, opts: { webhookId?: string; limit?: number; before?: string } = {}) {
  const limit = Math.min(200, opts.limit ?? 50);
  const found = await prisma.webhookDelivery.findMany({
    where: opts.webhookId ? { webhookId: opts.webhookId } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    ...(opts.before ? { cursor: { id: opts.before }, skip: 1 } : {}),
    take: limit + 1,
    select: {
      id: true,
      webhookId: true,
      event: true,
      subject: true,
      status: true,
      attempts: true,
      attemptsJson: true,
      nextAttemptAt: true,
      deliveredAt: true,
      createdAt: true,
    },
  });
  const rows = found.slice(0, limit);
  // Each delivery names the run it is about (its name, linked), not just an id.
  const runs = new Map(
    (await prisma.run.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.subject))] } }, select: { id: true, name: true } })).map((r) => [
      r.id,
      r.name,
    ]),
  );
  return {
    rows: rows.map(({ attemptsJson, ...d }) => ({
      ...d,
      runName: runs.get(d.subject) ?? null,
      tries: JSON.parse(attemptsJson) as Array<{ at: string; status: number | null; error: string | null; ms: number }>,
    })),
    /** the cursor of the page of older deliveries, or null when there is none */
    older: found.length > limit ? rows[rows.length - 1].id : null,
  };
}

/** The newest deliveries (one page). */
export async function listDeliveries(prisma: PrismaClient, opts: { webhookId?: string; limit?: number } = {}) {
  return (await deliveryPage(prisma, opts)).rows;
}

/** Sends a delivery again on request (an admin's word that the receiver is fixed): audited with who asked. */
export async function redeliver(prisma: PrismaClient, id: string, by: Actor | null) {
  await prisma.$transaction(async (tx) => {
    const d = await tx.webhookDelivery.findUnique({ where: { id }, select: { webhookId: true, event: true, subject: true, status: true } });
    const r = await tx.webhookDelivery.updateMany({
      where: { id, status: { in: ["failed", "delivered"] } },
      data: { status: "pending", nextAttemptAt: new Date(), attempts: 0 },
    });
    if (!r.count || !d) throw new DomainError("conflict", "that delivery is still being sent, or does not exist");
    await audit(tx, {
      ...actorOf(by),
      action: "webhook.redeliver",
      targetType: "webhook-delivery",
      targetId: id,
      details: { webhook: d.webhookId, event: d.event, subject: d.subject, was: d.status },
    });
  });
}

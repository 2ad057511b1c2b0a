// Sending due deliveries: each is claimed (so two workers never send it twice at once), POSTed with its signature
// through the outbound endpoint policy (no redirects followed, the response read at most 64 KiB), and recorded with
// the response code. A non-2xx answer or an error is retried with backoff — 10 s, 40 s, 160 s, ~11 min, ~43 min —
// then marked failed; the log keeps every attempt.
import type { PrismaClient } from "../../../generated/prisma/client";
import { createHttpFetch } from "../../providers/http-fetch";
import { WEBHOOK_HEADERS } from "./events";
import { sign } from "./signature";
import { instruments } from "../../core/metrics";
import { traced } from "../../core/tracing";

const MAX_ATTEMPTS = 6;
const TIMEOUT_MS = 10_000;
const LEASE_MS = 60_000;
const backoffMs = (attempt: number) => 10_000 * 4 ** (attempt - 1);
const webhookFetch = createHttpFetch({ maxBytes: 64 * 1024 });

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export async function deliverDue(prisma: PrismaClient, opts: { now?: number; limit?: number; fetch?: Fetch } = {}): Promise<number> {
  const now = opts.now ?? Date.now();
  const due = await prisma.webhookDelivery.findMany({
    where: {
      OR: [
        { status: "pending", nextAttemptAt: { lte: new Date(now) } },
        { status: "sending", leaseUntil: { lt: new Date(now) } },
      ],
    },
    orderBy: { nextAttemptAt: "asc" },
    take: opts.limit ?? 20,
    select: { id: true, status: true, leaseUntil: true },
  });
  let sent = 0;
  for (const d of due) {
    // Claimed only if nobody else changed it since it was read.
    const claimed = await prisma.webhookDelivery.updateMany({
      where: { id: d.id, status: d.status, leaseUntil: d.leaseUntil },
      data: { status: "sending", leaseUntil: new Date(now + LEASE_MS) },
    });
    if (!claimed.count) continue;
    await attempt(prisma, d.id, now, opts.fetch ?? (webhookFetch as Fetch));
    sent++;
  }
  return sent;
}

async function attempt(prisma: PrismaClient, id: string, now: number, doFetch: Fetch) {
  const d = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id }, include: { webhook: { select: { url: true, secret: true, active: true } } } });
  const t0 = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  if (!d.webhook.active) error = "the webhook was turned off";
  else
    try {
      // The URL's host only: a webhook URL may carry a token in its path or query.
      const attrs = {
        "fof.delivery_id": d.id,
        "fof.event": d.event,
        "fof.run_id": d.subject,
        "fof.attempt": d.attempts + 1,
        "server.address": new URL(d.webhook.url).host,
      };
      const res = await traced("webhook.deliver", attrs, async (span) => {
        const r = await doFetch(d.webhook.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "fof-webhooks/1",
            [WEBHOOK_HEADERS.event]: d.event,
            [WEBHOOK_HEADERS.delivery]: d.id,
            [WEBHOOK_HEADERS.signature]: sign(d.webhook.secret, d.payloadJson, Date.now()),
          },
          body: d.payloadJson,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        span?.setAttribute("http.response.status_code", r.status);
        return r;
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (e) {
      error = (e instanceof Error ? e.message : String(e)).slice(0, 300);
    }
  const attempts = d.attempts + 1;
  const tries = [...(JSON.parse(d.attemptsJson) as unknown[]), { at: new Date(now).toISOString(), status, error, ms: Date.now() - t0 }].slice(-20);
  const ok = error === null;
  const gaveUp = !ok && (attempts >= MAX_ATTEMPTS || !d.webhook.active);
  instruments().webhookAttempts.inc({ result: ok ? "delivered" : gaveUp ? "failed" : "retry" });
  await prisma.webhookDelivery.update({
    where: { id },
    data: {
      attempts,
      attemptsJson: JSON.stringify(tries),
      leaseUntil: null,
      ...(ok
        ? { status: "delivered", deliveredAt: new Date() }
        : gaveUp
          ? { status: "failed" }
          : { status: "pending", nextAttemptAt: new Date(now + backoffMs(attempts)) }),
    },
  });
}

import type { Metadata } from "next";
import { connection } from "next/server";
import { pageGuard } from "@/app/guard";
import { db } from "@/lib/db";
import Link from "next/link";
import { deliveryPage, listWebhooks } from "@/lib/features/webhooks/hooks";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { DeliveryLog, WebhookForm, WebhookList } from "@/components/webhooks/webhooks";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await pageGuard("webhooks.manage", "/webhooks");
  await connection();
  // Older deliveries page by key (a delivery's id), never by offset; a malformed cursor shows the newest.
  const raw = (await searchParams).before;
  const before = typeof raw === "string" && /^[a-z0-9]{1,40}$/.test(raw) ? raw : undefined;
  const [hooks, page] = await Promise.all([listWebhooks(db()), deliveryPage(db(), { limit: 50, before })]);
  const deliveries = page.rows;
  const urlOf = new Map(hooks.map((h) => [h.id, h.url]));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="URLs told when a run ends (completed, failed, stopped at its budget, cancelled) or its faces are all labelled. Each delivery is a signed JSON POST, retried with backoff until it is answered 2xx."
      />
      <Card title="Register a webhook">
        <WebhookForm />
      </Card>
      <Card title="Webhooks">
        <WebhookList hooks={hooks.map((h) => ({ id: h.id, url: h.url, events: h.events, created: h.createdAt.toISOString().slice(0, 10) }))} />
      </Card>
      <Card title={before ? "Older deliveries" : "Recent deliveries"} description="Newest first; each attempt with the receiver's status code or the error.">
        <DeliveryLog
          deliveries={deliveries.map((d) => ({
            id: d.id,
            url: urlOf.get(d.webhookId) ?? "",
            event: d.event,
            subject: d.subject,
            runName: d.runName,
            status: d.status,
            tries: d.tries.map((t) => `${t.at.slice(11, 19)} ${t.status ?? "–"}${t.error ? ` ${t.error}` : ""}`),
            next: d.status === "pending" ? d.nextAttemptAt.toISOString().slice(11, 19) : null,
          }))}
        />
        <nav aria-label="Delivery pages" className="mt-3 flex gap-4 text-sm">
          {before && (
            <Link href="/webhooks" className="text-indigo-700 hover:underline">
              ← Newest
            </Link>
          )}
          {page.older && (
            <Link href={`/webhooks?before=${page.older}`} className="text-indigo-700 hover:underline" rel="next">
              Older deliveries →
            </Link>
          )}
        </nav>
      </Card>
    </>
  );
}

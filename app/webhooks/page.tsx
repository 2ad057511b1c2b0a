import type { Metadata } from "next";
import { connection } from "next/server";
import { pageGuard } from "@/app/guard";
import { db } from "@/lib/db";
import { listDeliveries, listWebhooks } from "@/lib/features/webhooks/hooks";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { DeliveryLog, WebhookForm, WebhookList } from "@/components/webhooks/webhooks";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await pageGuard("webhooks.manage", "/webhooks");
  await connection();
  const [hooks, deliveries] = await Promise.all([listWebhooks(db()), listDeliveries(db(), { limit: 50 })]);
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
      <Card title="Recent deliveries" description="Newest first; each attempt with the receiver's status code or the error.">
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
      </Card>
    </>
  );
}

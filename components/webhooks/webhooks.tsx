"use client";
// Registering webhooks, listing and deleting them, and the delivery log with a "send again".
import Link from "next/link";
import { useActionState, useState, useTransition } from "react";
import { createWebhookAction, deleteWebhookAction, redeliverAction, type WebhookFormState } from "@/app/webhooks/actions";
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from "@/lib/features/webhooks/events";
import { ActionForm } from "@/components/ui/action-form";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Table, Td, Th } from "@/components/ui/table";
import { ShownOnce } from "@/components/ui/shown-once";

export function WebhookForm() {
  const [state, action, pending] = useActionState<WebhookFormState, FormData>(createWebhookAction, {});
  const err = state.fieldErrors ?? {};
  return (
    <ActionForm action={action} className="space-y-3" data-testid="webhook-form">
      <Field
        label="URL"
        error={err.url}
        hint={err.url ? undefined : "https; a private or loopback address only if the operator allows it (FOF_ALLOWED_ENDPOINTS)"}
      >
        <Input name="url" type="url" required placeholder="https://ci.example.org/hooks/fof" className="w-full" />
      </Field>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Events</legend>
        {err.events && <p className="text-xs text-rose-700">{err.events}</p>}
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {WEBHOOK_EVENTS.map((e) => (
            <label key={e} className="flex items-start gap-2 text-sm">
              <Input type="checkbox" name="events" value={e} defaultChecked={e !== "run.cancelled"} className="mt-1" />
              <span>
                <code className="text-xs">{e}</code> — {WEBHOOK_EVENT_LABELS[e]}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending ? "Registering…" : "Register webhook"}
      </Button>
      {state.message && (
        <Alert tone={state.ok ? "success" : "error"}>
          {state.message}
          {state.secret && <ShownOnce value={state.secret} label="Signing secret (shown once)" testId="webhook-secret" />}
        </Alert>
      )}
    </ActionForm>
  );
}

function useRowAction() {
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = (fn: () => Promise<{ ok: true } | { ok: false; error: string }>) =>
    start(async () => {
      const r = await fn();
      setError(r.ok ? null : r.error);
    });
  return { error, pending, run };
}

export function WebhookList({ hooks }: { hooks: Array<{ id: string; url: string; events: string[]; created: string }> }) {
  const { error, pending, run } = useRowAction();
  if (!hooks.length) return <p className="text-sm text-slate-500">No webhooks yet.</p>;
  return (
    <div className="space-y-2">
      {error && <Alert>{error}</Alert>}
      <Table aria-label="Webhooks">
        <thead>
          <tr>
            <Th>URL</Th>
            <Th>Events</Th>
            <Th>Registered</Th>
            <Th />
          </tr>
        </thead>
        <tbody>
          {hooks.map((h) => (
            <tr key={h.id}>
              <Td className="break-all font-mono text-xs">{h.url}</Td>
              <Td className="text-xs">{h.events.join(", ")}</Td>
              <Td>{h.created}</Td>
              <Td>
                <ConfirmDialog
                  title="Delete this webhook?"
                  description={`${h.url} is told nothing more; its delivery log goes with it.`}
                  confirmLabel="Delete webhook"
                  onConfirm={() => run(() => deleteWebhookAction({ id: h.id }))}
                  trigger={
                    <Button variant="secondary" disabled={pending} aria-label={`Delete ${h.url}`}>
                      Delete
                    </Button>
                  }
                />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

interface DeliveryRow {
  id: string;
  url: string;
  event: string;
  subject: string;
  /** the run the event is about (null: gone since) */
  runName: string | null;
  status: string;
  tries: string[];
  next: string | null;
}

const TONE = { delivered: "success", failed: "danger", pending: "warning", sending: "neutral" } as const;

export function DeliveryLog({ deliveries }: { deliveries: DeliveryRow[] }) {
  const { error, pending, run } = useRowAction();
  if (!deliveries.length) return <p className="text-sm text-slate-500">Nothing delivered yet.</p>;
  return (
    <div className="space-y-2">
      {error && <Alert>{error}</Alert>}
      <Table aria-label="Deliveries">
        <thead>
          <tr>
            <Th>Event</Th>
            <Th>Run</Th>
            <Th>To</Th>
            <Th>State</Th>
            <Th>Attempts (time, status)</Th>
            <Th />
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id} data-testid="delivery">
              <Td className="font-mono text-xs">{d.event}</Td>
              <Td className="text-xs">
                {d.runName ? (
                  <Link href={`/runs/${d.subject}`} className="text-indigo-700 hover:underline">
                    {d.runName}
                  </Link>
                ) : (
                  <span className="text-slate-500">{d.subject} (removed)</span>
                )}
              </Td>
              <Td className="break-all font-mono text-xs">{d.url}</Td>
              <Td>
                <Badge tone={TONE[d.status as keyof typeof TONE] ?? "neutral"}>{d.status}</Badge>
                {d.next && <span className="block text-xs text-slate-500">next try {d.next}</span>}
              </Td>
              <Td className="text-xs">{d.tries.length ? d.tries.join(" · ") : "–"}</Td>
              <Td>
                {(d.status === "failed" || d.status === "delivered") && (
                  <Button variant="secondary" disabled={pending} onClick={() => run(() => redeliverAction({ id: d.id }))}>
                    Send again
                  </Button>
                )}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

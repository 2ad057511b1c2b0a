"use client";
// Creating, listing and revoking one's personal access tokens. A new token's secret is shown once, in a read-only
// field to copy; the list shows each token's prefix, role, state, expiry and last use.
import { useActionState, useState, useTransition } from "react";
import { createTokenAction, revokeTokenAction, type TokenFormState } from "@/app/account/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { Table, Td, Th } from "@/components/ui/table";
import { ShownOnce } from "@/components/ui/shown-once";

export function TokenForm({ roles, own }: { roles: readonly string[]; own: string }) {
  const [state, action, pending] = useActionState<TokenFormState, FormData>(createTokenAction, {});
  const err = state.fieldErrors ?? {};
  return (
    <ActionForm action={action} className="space-y-3" data-testid="token-form">
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Name" error={err.name} hint={err.name ? undefined : "e.g. release-ci; unique among your live tokens"}>
          <Input name="name" required maxLength={60} className="w-full" />
        </Field>
        <Field label="Role" hint="what the token may do: runner is the least a CI job that launches runs needs">
          {/* The least role that can run CI (launch, read scores) when it is within the owner's; else the owner's. */}
          <Select name="role" defaultValue={roles.includes("runner") && own !== "runner" ? "runner" : ""} className="w-full">
            <option value="">{own} (yours)</option>
            {roles
              .filter((r) => r !== own)
              .map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
          </Select>
        </Field>
        <Field label="Expires after (days)" error={err.expiresDays}>
          <Input name="expiresDays" type="number" min={1} max={366} defaultValue={90} className="w-full" />
        </Field>
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create token"}
      </Button>
      {state.message && (
        <Alert tone={state.ok ? "success" : "error"}>
          {state.message}
          {state.secret && <ShownOnce value={state.secret} label="New token (shown once)" testId="new-token" />}
        </Alert>
      )}
    </ActionForm>
  );
}

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  role: string;
  state: "live" | "revoked" | "expired";
  expires: string;
  lastUsed: string;
  created: string;
}

export function TokenList({ tokens }: { tokens: TokenRow[] }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  if (!tokens.length) return <p className="mt-4 text-sm text-slate-500">No tokens yet.</p>;
  return (
    <div className="mt-4 space-y-2">
      {error && <Alert>{error}</Alert>}
      <Table aria-label="Your tokens">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Token</Th>
            <Th>Role</Th>
            <Th>State</Th>
            <Th>Expires</Th>
            <Th>Last used</Th>
            <Th>Created</Th>
            <Th />
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id} data-testid="token-row">
              <Td>{t.name}</Td>
              <Td className="font-mono text-xs">{t.prefix}…</Td>
              <Td>{t.role}</Td>
              <Td>
                <Badge tone={t.state === "live" ? "success" : "neutral"}>{t.state}</Badge>
              </Td>
              <Td>{t.expires}</Td>
              <Td>{t.lastUsed}</Td>
              <Td>{t.created}</Td>
              <Td>
                {t.state === "live" && (
                  <ConfirmDialog
                    title={`Revoke “${t.name}”?`}
                    description="Requests with it are refused from now on. This cannot be undone: make a new token if you need one."
                    confirmLabel="Revoke token"
                    onConfirm={() =>
                      start(async () => {
                        const r = await revokeTokenAction({ id: t.id });
                        setError(r.ok ? null : r.error);
                      })
                    }
                    trigger={
                      <Button variant="secondary" disabled={pending} aria-label={`Revoke ${t.name}`}>
                        Revoke
                      </Button>
                    }
                  />
                )}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

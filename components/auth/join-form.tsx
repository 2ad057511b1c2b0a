"use client";

import { useActionState } from "react";
import { redeemLink, type JoinState } from "@/app/join/[token]/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

export function JoinForm({ token, kind, email }: { token: string; kind: "invite" | "reset"; email: string }) {
  const [state, action, pending] = useActionState<JoinState, FormData>(redeemLink, {});
  return (
    <ActionForm action={action} className="space-y-3" data-testid="join-form">
      {state.message && <Alert>{state.message}</Alert>}
      <Input type="hidden" name="token" value={token} />
      {kind === "invite" && (
        <>
          <Field label="Your name">
            <Input name="name" autoComplete="name" required className="w-full" />
          </Field>
          <Field label="Email">
            <Input name="email" type="email" autoComplete="username" defaultValue={email} required className="w-full" />
          </Field>
        </>
      )}
      <Field label="Password (at least 10 characters)">
        <Input name="password" type="password" autoComplete="new-password" required className="w-full" />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : kind === "invite" ? "Create account" : "Set password"}
      </Button>
    </ActionForm>
  );
}

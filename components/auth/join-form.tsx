"use client";

import { useActionState } from "react";
import { redeemLink, type JoinState } from "@/app/join/[token]/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Field } from "./field";
import { FormError } from "./form-error";

export function JoinForm({ token, kind, email }: { token: string; kind: "invite" | "reset"; email: string }) {
  const [state, action, pending] = useActionState<JoinState, FormData>(redeemLink, {});
  return (
    <ActionForm action={action} className="space-y-3" data-testid="join-form">
      <FormError message={state.message} />
      <input type="hidden" name="token" value={token} />
      {kind === "invite" && (
        <>
          <Field name="name" label="Your name" autoComplete="name" />
          <Field name="email" label="Email" type="email" autoComplete="username" defaultValue={email} />
        </>
      )}
      <Field name="password" label="Password (at least 10 characters)" type="password" autoComplete="new-password" />
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : kind === "invite" ? "Create account" : "Set password"}
      </Button>
    </ActionForm>
  );
}

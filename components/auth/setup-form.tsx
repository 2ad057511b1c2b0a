"use client";

import { useActionState } from "react";
import { setupAdmin, type SetupState } from "@/app/setup/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

export function SetupForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<SetupState, FormData>(setupAdmin, {});
  return (
    <ActionForm action={action} className="space-y-3" data-testid="setup-form">
      {state.message && <Alert>{state.message}</Alert>}
      <Input type="hidden" name="token" value={token} />
      <Field label="Your name">
        <Input name="name" autoComplete="name" required className="w-full" />
      </Field>
      <Field label="Email">
        <Input name="email" type="email" autoComplete="username" required className="w-full" />
      </Field>
      <Field label="Password (at least 10 characters)">
        <Input name="password" type="password" autoComplete="new-password" required className="w-full" />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create admin and sign in"}
      </Button>
    </ActionForm>
  );
}

"use client";

import { useActionState } from "react";
import { setupAdmin, type SetupState } from "@/app/setup/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Field } from "./field";
import { FormError } from "./form-error";

export function SetupForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<SetupState, FormData>(setupAdmin, {});
  return (
    <ActionForm action={action} className="space-y-3" data-testid="setup-form">
      <FormError message={state.message} />
      <input type="hidden" name="token" value={token} />
      <Field name="name" label="Your name" autoComplete="name" />
      <Field name="email" label="Email" type="email" autoComplete="username" />
      <Field name="password" label="Password (at least 10 characters)" type="password" autoComplete="new-password" />
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create admin and sign in"}
      </Button>
    </ActionForm>
  );
}

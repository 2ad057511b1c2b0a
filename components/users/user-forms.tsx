"use client";

import { startTransition, useActionState } from "react";
import { changeUser, inviteUser, type UsersFormState } from "@/app/users/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { ROLES, type Role } from "@/lib/auth/roles";
import { Input, Select } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/dialog";

function Result({ state }: { state: UsersFormState }) {
  if (!state.message) return null;
  const link = state.link ? `${window.location.origin}${state.link}` : null;
  return (
    <Alert tone={state.ok ? "success" : "error"} className="mt-2 text-xs">
      {state.message}
      {link && (
        <Input
          readOnly
          value={link}
          aria-label="One-time link"
          data-testid="one-time-link"
          onFocus={(e) => e.currentTarget.select()}
          className="mt-1 block w-full rounded border border-emerald-300 bg-white px-2 py-1 font-mono"
        />
      )}
    </Alert>
  );
}

export function InviteForm() {
  const [state, action, pending] = useActionState<UsersFormState, FormData>(inviteUser, {});
  return (
    <ActionForm action={action} className="flex flex-wrap items-end gap-2 text-sm" data-testid="invite-form">
      <Field label="Role">
        <Select name="role" defaultValue="annotator">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Email (optional: only this address may use it)">
        <Input name="email" type="email" />
      </Field>
      <Button type="submit" disabled={pending}>
        Make invitation link
      </Button>
      <div className="basis-full">
        <Result state={state} />
      </div>
    </ActionForm>
  );
}

/** One user's row controls: role, spending limit, disable / enable, reset link. */
export function UserControls({
  id,
  email,
  role,
  disabled,
  limit,
  sso,
}: {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  limit: number | null;
  /** the account has a single sign-on identity (an admin may remove it) */
  sso: boolean;
}) {
  const [state, action, pending] = useActionState<UsersFormState, FormData>(changeUser, {});
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <ActionForm action={action} className="flex items-center gap-1">
        <Input type="hidden" name="op" value="role" />
        <Input type="hidden" name="userId" value={id} />
        <Select name="role" defaultValue={role} aria-label="Role" className="rounded border border-slate-300 px-1 py-0.5">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </Select>
        <button type="submit" disabled={pending} className="rounded px-2 py-0.5 ring-1 ring-slate-300 hover:bg-slate-50">
          Set role
        </button>
      </ActionForm>
      <ActionForm action={action} className="flex items-center gap-1">
        <Input type="hidden" name="op" value="limit" />
        <Input type="hidden" name="userId" value={id} />
        <Input
          name="limit"
          type="number"
          min={0}
          step="0.01"
          defaultValue={limit ?? ""}
          placeholder="no limit"
          aria-label="Spending limit (USD)"
          className="w-24 rounded border border-slate-300 px-1 py-0.5"
        />
        <button type="submit" disabled={pending} className="rounded px-2 py-0.5 ring-1 ring-slate-300 hover:bg-slate-50">
          Set limit
        </button>
      </ActionForm>
      {disabled ? (
        <ActionForm action={action}>
          <Input type="hidden" name="op" value="enable" />
          <Input type="hidden" name="userId" value={id} />
          <button type="submit" disabled={pending} className="rounded px-2 py-0.5 ring-1 ring-slate-300 hover:bg-slate-50">
            Enable
          </button>
        </ActionForm>
      ) : (
        // Disabling ends the account's sessions and stops its tokens at once: asked first, "keep it" focused.
        <ConfirmDialog
          title={`Disable ${email}?`}
          description="Their sessions end at once and their tokens stop working; their runs, labels and reviews stay. You can enable the account again."
          confirmLabel="Disable account"
          cancelLabel="Keep it enabled"
          onConfirm={() =>
            startTransition(() => {
              const form = new FormData();
              form.set("op", "disable");
              form.set("userId", id);
              action(form);
            })
          }
          trigger={
            <button type="button" disabled={pending} className="rounded px-2 py-0.5 text-rose-700 ring-1 ring-slate-300 hover:bg-slate-50">
              Disable
            </button>
          }
        />
      )}
      {sso && (
        // Removing the identity ends the sessions opened through it; the person's next single sign-on is decided afresh.
        <ConfirmDialog
          title={`Remove ${email}'s single sign-on identity?`}
          description="The sessions opened through it end at once. Their next single sign-on is decided again: it joins this account only if the provider says the address is verified and linking is on."
          confirmLabel="Remove identity"
          cancelLabel="Keep it"
          onConfirm={() =>
            startTransition(() => {
              const form = new FormData();
              form.set("op", "unlink");
              form.set("userId", id);
              action(form);
            })
          }
          trigger={
            <button type="button" disabled={pending} className="rounded px-2 py-0.5 text-rose-700 ring-1 ring-slate-300 hover:bg-slate-50">
              Remove single sign-on
            </button>
          }
        />
      )}
      <ActionForm action={action}>
        <Input type="hidden" name="op" value="reset" />
        <Input type="hidden" name="userId" value={id} />
        <button type="submit" disabled={pending} className="rounded px-2 py-0.5 ring-1 ring-slate-300 hover:bg-slate-50">
          Reset link
        </button>
      </ActionForm>
      <div className="basis-full">
        <Result state={state} />
      </div>
    </div>
  );
}

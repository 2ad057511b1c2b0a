"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/use-hydrated";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

/** Signs in through better-auth's endpoint; the session cookie is set by the response (httpOnly). */
export function SignInForm({ next }: { next: string }) {
  const hydrated = useHydrated();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="space-y-3"
      data-testid="sign-in-form"
      data-hydrated={hydrated || undefined}
      onSubmit={async (e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        setPending(true);
        setMessage(null);
        try {
          const res = await fetch("/api/auth/sign-in/email", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: data.get("email"), password: data.get("password") }),
          });
          if (res.ok) {
            window.location.assign(next);
            return;
          }
          // One message for a wrong password, an unknown email and a disabled account: nobody learns who has one.
          setMessage(
            res.status === 429
              ? "Too many attempts: wait a minute, then try again."
              : res.status === 503
                ? "The server is busy: try again in a moment."
                : res.status >= 500
                  ? `The server could not sign you in (HTTP ${res.status}): try again, or tell an admin.`
                  : "Wrong email or password.",
          );
        } catch {
          setMessage("The server could not be reached.");
        } finally {
          setPending(false);
        }
      }}
    >
      {message && <Alert>{message}</Alert>}
      <Field label="Email">
        <Input name="email" type="email" autoComplete="username" required className="w-full" />
      </Field>
      <Field label="Password">
        <Input name="password" type="password" autoComplete="current-password" required className="w-full" />
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}

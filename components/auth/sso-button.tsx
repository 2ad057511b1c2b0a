"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/use-hydrated";
import { Alert } from "@/components/ui/alert";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-messages";

/**
 * Starts single sign-on: better-auth answers with the identity provider's authorization URL (state, PKCE and nonce
 * kept server-side) and the browser goes there; the provider comes back to /api/auth/callback/oidc, which lands on
 * `next` signed in, or on this page with an error code.
 */
export function SsoButton({ name, next, primary }: { name: string; next: string; primary: boolean }) {
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="space-y-2" data-testid="sso" data-hydrated={hydrated || undefined}>
      {message && <Alert>{message}</Alert>}
      <Button
        type="button"
        variant={primary ? "primary" : "secondary"}
        disabled={pending}
        className="w-full"
        onClick={async () => {
          setPending(true);
          setMessage(null);
          try {
            const res = await fetch("/api/auth/sign-in/social", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                provider: SSO_PROVIDER_ID,
                callbackURL: next,
                errorCallbackURL: `/sign-in?next=${encodeURIComponent(next)}`,
                disableRedirect: true,
              }),
            });
            const body = (await res.json().catch(() => null)) as { url?: unknown; message?: unknown } | null;
            if (res.ok && typeof body?.url === "string") {
              window.location.assign(body.url);
              return;
            }
            setMessage(
              typeof body?.message === "string" && res.status === 503
                ? body.message
                : `Single sign-on could not start (HTTP ${res.status}). Try again, or tell an admin.`,
            );
          } catch {
            setMessage("The server could not be reached.");
          }
          setPending(false);
        }}
      >
        {pending ? "Going to the identity provider…" : `Sign in with ${name}`}
      </Button>
    </div>
  );
}

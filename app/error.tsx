"use client";

import { useEffect } from "react";
import { Button } from "@/components/ui/button";

// Route-level error boundary. The message shown is generic in production (Next strips server error details);
// the digest lets an operator find the full error in the server log.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert" className="mx-auto max-w-xl rounded-lg border border-rose-200 bg-white p-6">
      <h1 className="text-lg font-semibold text-rose-700">Something went wrong</h1>
      <p className="mt-2 text-sm text-slate-700">
        This page could not be shown. Nothing you entered was lost; try again, and if it persists, check the server log
        {error.digest ? (
          <>
            {" "}
            for error <code className="rounded bg-slate-100 px-1">{error.digest}</code>
          </>
        ) : null}
        .
      </p>
      <Button className="mt-4" onClick={() => reset()}>
        Try again
      </Button>
    </div>
  );
}

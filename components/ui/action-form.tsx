"use client";

import { startTransition, type ComponentProps } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A form that submits a server action through a transition instead of the `action` prop, so a rejected submission
 * keeps what was typed (React resets forms after `action` submissions). Marks itself data-hydrated once
 * interactive, so nobody — user or test — submits before React is listening.
 */
export function ActionForm({ action, children, ...props }: Omit<ComponentProps<"form">, "action" | "onSubmit"> & { action: (data: FormData) => void }) {
  const hydrated = useHydrated();
  return (
    <form
      {...props}
      noValidate
      data-hydrated={hydrated || undefined}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        startTransition(() => action(data));
      }}
    >
      {children}
    </form>
  );
}

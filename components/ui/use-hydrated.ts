"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

/** True once React has hydrated: forms expose it as data-hydrated so tests and users never race hydration. */
export function useHydrated(): boolean {
  // false in the server render and during hydration, true on the client after it (no effect, no second render pass)
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

"use client";

import { useEffect, useState } from "react";

/** True once React has hydrated: forms expose it as data-hydrated so tests and users never race hydration. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { z } from "zod";
import type { Permission } from "@/lib/auth/roles";
import { ViewerPermissionsProvider } from "@/components/layout/viewer-permissions";

// In the browser zod validates without compiling code (its fast path tries `new Function`, which the pages'
// Content-Security-Policy forbids: lib/core/csp.ts). The server keeps the fast path.
if (typeof window !== "undefined") z.config({ jitless: true });

export function Providers({ permissions, children }: { permissions: readonly Permission[]; children: ReactNode }) {
  // One client per browser session; server components fetch on their own.
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: 1 } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ViewerPermissionsProvider permissions={permissions}>{children}</ViewerPermissionsProvider>
    </QueryClientProvider>
  );
}

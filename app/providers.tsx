"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { Permission } from "@/lib/auth/roles";
import { ViewerPermissionsProvider } from "@/components/layout/viewer-permissions";

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

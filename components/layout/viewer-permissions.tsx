"use client";
// What the signed-in viewer's role may do, for client components deciding what to offer: a link, button or clickable
// chart part is shown only when its target would not answer "not for your role". Read from the root layout (the
// one role matrix, lib/auth/roles.ts); the server still refuses whatever is asked of it.
import { createContext, useContext, type ReactNode } from "react";
import type { Permission } from "@/lib/auth/roles";

const ViewerPermissions = createContext<ReadonlySet<Permission>>(new Set());

export function ViewerPermissionsProvider({ permissions, children }: { permissions: readonly Permission[]; children: ReactNode }) {
  return <ViewerPermissions.Provider value={new Set(permissions)}>{children}</ViewerPermissions.Provider>;
}

/** Whether the viewer may do this (false when signed out). */
export function useMay(permission: Permission): boolean {
  return useContext(ViewerPermissions).has(permission);
}

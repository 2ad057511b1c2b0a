"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Permission } from "@/lib/auth/roles";

/** Each section with the permission it needs (null: public); a role sees only what it may open. */
const NAV_ITEMS: ReadonlyArray<{ href: string; label: string; needs: Permission | null; hard?: true }> = [
  { href: "/runs", label: "Runs", needs: "results.read" },
  { href: "/benchmark", label: "Benchmark", needs: null },
  { href: "/results", label: "Results", needs: "results.read" },
  { href: "/label", label: "Label", needs: "faces.label", hard: true },
  { href: "/review", label: "Review", needs: "faces.review" },
  { href: "/models", label: "Models", needs: "models.manage" },
  { href: "/workers", label: "Workers", needs: "runs.manage" },
  { href: "/users", label: "Users", needs: "users.manage" },
  { href: "/webhooks", label: "Webhooks", needs: "webhooks.manage" },
];

export interface NavUser {
  email: string;
  role: string;
  permissions: Permission[];
}

export function MainNav({ user }: { user: NavUser | null }) {
  const pathname = usePathname();
  const items = NAV_ITEMS.filter((i) => i.needs === null || user?.permissions.includes(i.needs));
  return (
    <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
      {items.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        const props = {
          href: item.href,
          "aria-current": active ? ("page" as const) : undefined,
          className:
            "rounded-md px-3 py-1.5 text-sm font-medium transition-colors " + (active ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-200"),
        };
        // The Label page is loaded in full: it needs its own cross-origin isolation headers (threaded WASM).
        return item.hard ? (
          <a key={item.href} {...props}>
            {item.label}
          </a>
        ) : (
          <Link key={item.href} {...props}>
            {item.label}
          </Link>
        );
      })}
      {user ? (
        <span className="ml-2 flex items-center gap-2 text-xs text-slate-600" data-testid="account">
          <span>
            {user.email} · <span className="font-medium">{user.role}</span>
          </span>
          <Link
            href="/account"
            aria-current={pathname === "/account" ? "page" : undefined}
            title="Your account and personal access tokens"
            className="rounded-md px-2 py-1 font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-100"
          >
            Account
          </Link>
          <button
            type="button"
            className="rounded-md px-2 py-1 font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-100"
            onClick={async () => {
              await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).catch(() => undefined);
              // A full page load, not a client navigation: nothing of the signed-in session stays in memory.
              window.location.replace("/sign-in");
            }}
          >
            Sign out
          </button>
        </span>
      ) : (
        <Link href="/sign-in" className="ml-2 rounded-md px-3 py-1.5 text-sm font-medium text-indigo-700 hover:bg-slate-100">
          Sign in
        </Link>
      )}
    </nav>
  );
}

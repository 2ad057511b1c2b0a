"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const NAV_ITEMS = [
  { href: "/runs", label: "Runs" },
  { href: "/benchmark", label: "Benchmark" },
  { href: "/results", label: "Results" },
  { href: "/label", label: "Label", hard: true },
  { href: "/review", label: "Review" },
  { href: "/models", label: "Models" },
] as const;

export function MainNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-wrap gap-1">
      {NAV_ITEMS.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        const props = {
          href: item.href,
          "aria-current": active ? ("page" as const) : undefined,
          className: "rounded-md px-3 py-1.5 text-sm font-medium transition-colors " + (active ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-200"),
        };
        // The Label page is loaded in full: it needs its own cross-origin isolation headers (threaded WASM).
        return "hard" in item ? (
          <a key={item.href} {...props}>
            {item.label}
          </a>
        ) : (
          <Link key={item.href} {...props}>
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}

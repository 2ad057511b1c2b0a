"use client";
// The Review section's tabs, each shown only to the roles its page serves: the queue to those who review faces, the
// agreement and detector pages to those who manage review (an annotator never meets "not for your role").
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { useMay } from "@/components/layout/viewer-permissions";
import type { Permission } from "@/lib/auth/roles";

const TABS = [
  { href: "/review", label: "Review queue", needs: "faces.review" },
  { href: "/review/explanations", label: "Explanations", needs: "explanations.review" },
  { href: "/review/agreement", label: "Annotators & agreement", needs: "review.manage" },
  { href: "/review/report", label: "Detector report", needs: "review.manage" },
] as const satisfies ReadonlyArray<{ href: string; label: string; needs: Permission }>;

export function ReviewTabs({ active }: { active: (typeof TABS)[number]["href"] }) {
  const may = { "faces.review": useMay("faces.review"), "explanations.review": useMay("explanations.review"), "review.manage": useMay("review.manage") };
  const tabs = TABS.filter((t) => may[t.needs] || t.href === active);
  if (tabs.length < 2) return null;
  return (
    <nav aria-label="Review sections" className="mb-4 flex gap-1 border-b border-slate-200">
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.href === active ? "page" : undefined}
          className={cn(
            "-mb-px border-b-2 px-3 py-2 text-sm",
            t.href === active ? "border-indigo-600 font-medium text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900",
          )}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

import Link from "next/link";
import { cn } from "@/components/ui/cn";

const TABS = [
  { href: "/review", label: "Review queue" },
  { href: "/review/agreement", label: "Annotators & agreement" },
  { href: "/review/report", label: "Detector report" },
] as const;

export function ReviewTabs({ active }: { active: (typeof TABS)[number]["href"] }) {
  return (
    <nav aria-label="Review sections" className="mb-4 flex gap-1 border-b border-slate-200">
      {TABS.map((t) => (
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

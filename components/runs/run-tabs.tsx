// The tabs every run's pages share, whatever its suite: overview, items (roles that may read raw output), the suite's
// own result views (Suite.runPages), the printable report, and where its faces are labelled and reviewed. Links a
// role cannot use are not shown, so a viewer never meets a 403 from here.
import Link from "next/link";
import type { Role } from "@/lib/auth/roles";
import { can } from "@/lib/auth/roles";
import { suiteOfFace } from "@/lib/suites/faces";

export type RunTab = "overview" | "report" | string;

/** `explanations`: the run asked for reasoning (chain of thought): its explanations' results have a page. */
export function RunTabs({
  run,
  current,
  role,
  explanations = false,
}: {
  run: { id: string; suiteId: string | null; modality: string };
  current: RunTab;
  role: Role;
  explanations?: boolean;
}) {
  const suite = suiteOfFace(run.suiteId);
  const t2i = run.modality === "t2i";
  const tabs: Array<{ id: string; href: string; label: string }> = [
    { id: "overview", href: `/runs/${run.id}`, label: "Overview" },
    ...(can(role, "data.export") ? [{ id: "items", href: `/runs/${run.id}#items`, label: "Items" }] : []),
    ...(suite.runPages ?? []).map((p) => ({ id: p.path, href: `/runs/${run.id}/${p.path}`, label: p.label })),
    ...(explanations ? [{ id: "explanations", href: `/runs/${run.id}/explanations`, label: "Explanations" }] : []),
    { id: "report", href: `/runs/${run.id}/report`, label: "Report" },
    ...(t2i && can(role, "faces.review") ? [{ id: "review", href: `/review?runId=${run.id}`, label: "Review faces" }] : []),
    ...(t2i && can(role, "faces.label") ? [{ id: "label", href: `/label?run=${run.id}`, label: "Label" }] : []),
  ];
  return (
    <nav aria-label="Run pages" className="mb-4 flex flex-wrap gap-1 print:hidden">
      {tabs.map((t) => (
        <Link
          key={t.id}
          href={t.href}
          aria-current={t.id === current ? "page" : undefined}
          className={`rounded px-3 py-1.5 text-sm font-medium ${t.id === current ? "bg-slate-900 text-white" : "text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100"}`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

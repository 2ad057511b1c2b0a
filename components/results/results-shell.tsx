import Link from "next/link";
import type { ReactNode } from "react";
import type { Selection } from "@/lib/features/results/select-runs";
import { RunPicker } from "./run-picker";
import { SuiteSwitch } from "./suite-switch";
import { DEFAULT_PROFILE, PROFILE_LABELS, SCORING_PROFILES } from "@/lib/metrics/profiles";
import { DEFAULT_SUITE_ID } from "@/lib/suites";
import { Input, Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

const TABS = [
  { href: "/results", label: "Trade-off chart" },
  { href: "/results/leaderboard", label: "Leaderboard" },
  { href: "/results/context", label: "Context influence" },
  { href: "/results/compare", label: "Compare" },
] as const;

/** Tabs between the results views (carrying the run selection), the run picker and the export links. */
export function ResultsShell({
  current,
  selection,
  keep = {},
  children,
}: {
  current: (typeof TABS)[number]["href"];
  selection: Selection;
  keep?: Record<string, string>;
  children: ReactNode;
}) {
  const runsParam = selection.explicit ? selection.selected.map((r) => r.id).join(",") : "";
  const qs = (extra: Record<string, string> = {}) => {
    const p = new URLSearchParams({
      ...(runsParam ? { runs: runsParam } : {}),
      ...(selection.profile !== DEFAULT_PROFILE ? { profile: selection.profile } : {}),
      ...extra,
    });
    const s = p.toString();
    return s ? `?${s}` : "";
  };
  return (
    <div className="space-y-4">
      <SuiteSwitch current={DEFAULT_SUITE_ID} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <nav aria-label="Results views" className="flex flex-wrap gap-1">
          {TABS.map((t) => (
            <Link
              key={t.href}
              href={`${t.href}${qs()}`}
              aria-current={t.href === current ? "page" : undefined}
              className={`rounded px-3 py-1.5 text-sm font-medium ${t.href === current ? "bg-slate-900 text-white" : "text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100"}`}
            >
              {t.label}
            </Link>
          ))}
        </nav>
        <div className="flex gap-2 text-sm">
          <a
            className="rounded px-2 py-1 text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50"
            href={`/api/results/scores${qs({ format: "csv", runs: selection.selected.map((r) => r.id).join(",") })}`}
            download
          >
            Export scores CSV
          </a>
          <a
            className="rounded px-2 py-1 text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50"
            href={`/api/results/scores${qs({ format: "json", runs: selection.selected.map((r) => r.id).join(",") })}`}
            download
          >
            JSON
          </a>
        </div>
      </div>
      <form method="get" className="flex flex-wrap items-center gap-2 text-sm">
        {runsParam && <Input type="hidden" name="runs" value={runsParam} />}
        {Object.entries(keep).map(([k, v]) => (
          <Input key={k} type="hidden" name={k} value={v} />
        ))}
        <label
          htmlFor="results-profile"
          className="text-slate-600"
          title="release: every score as the authors' released scripts compute it (S_KLD of the mean KL, their rounding, the bounded search for d — what the published numbers are); paper-text: as the paper defines each score (docs/scoring.md)"
        >
          Scoring
        </label>
        <Select id="results-profile" name="profile" defaultValue={selection.profile} className="rounded-md border border-slate-300 px-2 py-1 text-sm">
          {SCORING_PROFILES.map((p) => (
            <option key={p} value={p}>
              {p}: {PROFILE_LABELS[p]}
            </option>
          ))}
        </Select>
        <button type="submit" className="rounded px-2 py-1 text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50">
          Apply
        </button>
      </form>
      {selection.error && <Alert role="status">{selection.error}</Alert>}
      <RunPicker selection={selection} keep={{ ...keep, ...(selection.profile !== DEFAULT_PROFILE ? { profile: selection.profile } : {}) }} />
      {children}
    </div>
  );
}

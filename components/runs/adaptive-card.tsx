"use client";
// An adaptive run's reasoning (lib/metrics/sequential.ts): the target, each look's verdict, and per model and score
// the latest interval against the target — what is left and why it goes on, or why it stopped.
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import type { RunSummary } from "@/lib/features/results/summary";
import { metricText } from "@/lib/results/adaptive";
import { INTERVAL_FLAG_TEXT, INTERVAL_TARGET_SHORT } from "@/lib/metrics/design";

type Adaptive = NonNullable<RunSummary["adaptive"]>;

const pct = (x: number) => `${(100 * x).toFixed(x < 0.995 && x > 0.95 ? 2 : 1).replace(/\.?0+$/, "")} %`;

export function AdaptiveCard({ adaptive, plannedCount }: { adaptive: Adaptive; plannedCount: number }) {
  const last = adaptive.looks.at(-1) ?? null;
  const looks = adaptive.schedule.fractions.length;
  const tone = adaptive.outcome?.kind === "met" ? "success" : adaptive.outcome ? "warning" : "neutral";
  // The widest rows first: what holds the run back is at the top.
  const rows = last ? [...last.rows].sort((a, b) => rank(b) - rank(a)).slice(0, 40) : [];
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          Adaptive target <code className="font-mono text-xs">{adaptive.until}</code>
          <span data-testid="adaptive-state">
            <Badge tone={tone}>
              {adaptive.outcome?.kind === "met" ? "target met" : adaptive.outcome ? "cap reached" : `look ${last ? last.look : 0} of ${looks}`}
            </Badge>
          </span>
        </span>
      }
      description={`Waves of a random stratified sample of the plan (${adaptive.schedule.fractions.map(pct).join(", ")} of its ${plannedCount.toLocaleString("en-US")} items); each look's intervals are at its own level (Bonferroni alpha spending, α = ${adaptive.alpha}), so the intervals of the look where the run stops cover with at least ${pct(1 - adaptive.alpha)} however often anyone looked. Target: ${INTERVAL_TARGET_SHORT[adaptive.intervalTarget]}.`}
    >
      <p className="text-sm" data-testid="adaptive-summary">
        {adaptive.summary}
      </p>
      {adaptive.waitingForLabels > 0 && (
        <p className="mt-1 text-sm text-slate-600" data-testid="adaptive-waiting">
          The next look waits for the labels of {adaptive.waitingForLabels.toLocaleString("en-US")} image{adaptive.waitingForLabels === 1 ? "" : "s"} already
          generated; no more are generated until it is taken.
        </p>
      )}
      {last && (
        <div className="mt-3 overflow-x-auto">
          <p className="mb-1 text-xs text-slate-500">
            Look {last.look} at {last.items.toLocaleString("en-US")} of {last.planned.toLocaleString("en-US")} items, intervals at {pct(last.level)}
            {adaptive.outcome ? " — the ones this run reports" : ""}:
          </p>
          <table className="min-w-full text-xs" data-testid="adaptive-rows">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="pr-3 font-medium">Model</th>
                <th className="pr-3 font-medium">Group</th>
                <th className="pr-3 font-medium">Score</th>
                <th className="pr-3 font-medium">Estimate [interval]</th>
                <th className="pr-3 font-medium">{adaptive.target.kind === "halfwidth" ? "± now / target" : "State"}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const hw = (r.hi - r.lo) / 2;
                const ok = r.target !== undefined ? hw <= r.target + 1e-12 : r.decision !== "open";
                return (
                  <tr key={`${r.model}|${r.group}|${r.metric}`} className={ok ? "" : "font-medium text-amber-800"}>
                    <td className="pr-3">{r.model}</td>
                    <td className="pr-3">{r.group}</td>
                    <td className="pr-3">{metricText(r.metric, adaptive)}</td>
                    <td className="pr-3 tabular-nums">
                      {r.estimate.toFixed(3)} [{r.lo.toFixed(3)}, {r.hi.toFixed(3)}]
                      {r.flags?.length ? (
                        <span className="ml-1 text-amber-700" title={r.flags.map((f) => INTERVAL_FLAG_TEXT[f]).join("; ")} data-testid="adaptive-flag">
                          ⚠<span className="sr-only">{r.flags.map((f) => INTERVAL_FLAG_TEXT[f]).join("; ")}</span>
                        </span>
                      ) : null}
                    </td>
                    <td className="pr-3 tabular-nums">{r.target !== undefined ? `±${hw.toFixed(3)} / ±${r.target}` : r.decision}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {last.rows.length > rows.length && <p className="mt-1 text-xs text-slate-500">{last.rows.length - rows.length} more within their target.</p>}
        </div>
      )}
    </Card>
  );
}

/** How far a row is from its target (halfwidth ratio; open comparisons first). */
function rank(r: Adaptive["looks"][number]["rows"][number]): number {
  if (r.target !== undefined) return (r.hi - r.lo) / 2 / r.target;
  return r.decision === "open" ? 2 : r.decision === "separated" ? 1 : 0;
}

"use client";

// "Is the difference real?" on the Compare page: each model against the reference, every score of every group, as
// Δ [interval], Holm-adjusted p and a sentence (GET /api/v1/compare, computed off the page and cached).
import { useState } from "react";
import { useQueries } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { comparisonSentence, METRIC_NAMES, type SentenceScale } from "@/lib/results/comparison-text";
import type { BootstrapMetric, IntervalTarget } from "@/lib/metrics/design";
import { IntervalTargetSelect } from "./interval-cell";
import type { ComparisonResult } from "@/lib/features/results/comparisons";

/** a value on the page's scale: ×100 with one decimal (FACT-OR-FAIR's pages, a suite's % tables), or 0–1 */
const fmt = (scale: SentenceScale) => (x: number) => (scale === 100 ? (x * 100).toFixed(1) : x.toFixed(3));
const fp = (p: number) => (p < 0.001 ? "< 0.001" : p.toFixed(3));

export function ComparisonCard({
  reference,
  others,
  metric,
  scale = 100,
}: {
  reference: { side: string; label: string };
  others: Array<{ side: string; label: string }>;
  /** the score the page is about (the others behind "every score"); left out: every row (another suite's metrics) */
  metric?: BootstrapMetric;
  /** the scale of the tables the card sits beside: ×100 (default) or the scores' own 0–1 (a suite whose tables are 0–1) */
  scale?: SentenceScale;
}) {
  const f = fmt(scale);
  const [target, setTarget] = useState<IntervalTarget>("population");
  const [all, setAll] = useState(false);
  const results = useQueries({
    queries: others.map((o) => ({
      queryKey: ["compare", reference.side, o.side, target],
      queryFn: async (): Promise<ComparisonResult> => {
        const res = await fetch(`/api/v1/compare?${new URLSearchParams({ a: reference.side, b: o.side, target })}`);
        const body = await res.json();
        if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
        return body as ComparisonResult;
      },
      staleTime: 60_000,
      retry: 0,
    })),
  });
  return (
    <Card
      title="Is the difference real?"
      description={`B − A against the reference (A = ${reference.label}), ${scale === 100 ? "×100" : "on the scores' 0–1 scale"}, with 95 % intervals; p adjusted by Holm over every score and group of the pair. “Separable”: adjusted p < 0.05 — an interval is not adjusted, so one that excludes 0 can still be not separable once the family is. A and B are each side's bias-corrected estimate — the values B − A is the difference of — with its plug-in beneath. Comparisons are on the paper's definitions under every profile: under the release profile the tables' S_KLD and S_fair follow the released scripts and differ from these (docs/scoring.md).`}
    >
      <div className="mb-2 flex flex-wrap items-center gap-3 text-xs text-slate-600" data-testid="comparison-controls">
        <IntervalTargetSelect target={target} onChange={setTarget} />
        {metric && (
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
            every score (not only {METRIC_NAMES[metric]})
          </label>
        )}
      </div>
      {others.map((o, i) => {
        const r = results[i];
        if (r.isPending)
          return (
            <p key={o.side} className="text-sm text-slate-500" aria-live="polite">
              Comparing {o.label}…
            </p>
          );
        if (r.error)
          return (
            <p key={o.side} className="text-sm text-red-700">
              {o.label}: {(r.error as Error).message}
            </p>
          );
        const rows = r.data!.comparisons.filter((c) => all || !metric || c.metric === metric);
        return (
          <div key={o.side} className="mb-4" data-testid="comparison">
            <p className="mb-1 text-sm">
              <strong>B = {o.label}</strong> <span className="text-slate-500">· {r.data!.pairing}</span>
            </p>
            <Table>
              <thead>
                <tr>
                  <Th>Group</Th>
                  <Th>Score</Th>
                  <Th className="text-right">A</Th>
                  <Th className="text-right">B</Th>
                  <Th className="text-right">B − A [95 %]</Th>
                  <Th className="text-right">p (adj.)</Th>
                  <Th>Verdict</Th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={`${c.group}|${c.metric}`} data-testid="comparison-row" data-separable={c.separable}>
                    <Td>{c.group}</Td>
                    <Td>{c.metricName ?? METRIC_NAMES[c.metric as BootstrapMetric] ?? c.metric}</Td>
                    <SideCell value={c.a} plugIn={c.aPlugIn} f={f} />
                    <SideCell value={c.b} plugIn={c.bPlugIn} f={f} />
                    <Td className="text-right tabular-nums">
                      {c.delta > 0 ? "+" : ""}
                      {f(c.delta)} [{f(c.lo)}, {f(c.hi)}]
                    </Td>
                    <Td
                      className="text-right tabular-nums"
                      title={`unadjusted ${fp(c.p)} (${c.testUsed === "mcnemar" ? "exact McNemar" : "paired bootstrap"})`}
                    >
                      {fp(c.pAdjusted)}
                    </Td>
                    <Td className={c.separable ? "font-medium" : "text-slate-500"}>{comparisonSentence({ ...c, scale })}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        );
      })}
    </Card>
  );
}

/** One side's value as compared (bias-corrected: B − A is the difference of these), its plug-in beneath when it differs. */
function SideCell({ value, plugIn, f }: { value: number; plugIn?: number; f: (x: number) => string }) {
  return (
    <Td className="text-right tabular-nums">
      {f(value)}
      {plugIn !== undefined && f(plugIn) !== f(value) && (
        <span className="block text-xs text-slate-500" title="plug-in: the score before the bias correction, on the paper's definitions">
          plug-in {f(plugIn)}
        </span>
      )}
    </Td>
  );
}

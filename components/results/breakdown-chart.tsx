"use client";

import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { BreakdownRow } from "@/lib/results/breakdown";
import { answersHref, type GroupRef } from "@/lib/results/links";

const COLOURS: Record<string, string> = {
  male: "#2563eb",
  female: "#db2777",
  Asian: "#059669",
  Black: "#7c3aed",
  Hispanic: "#d97706",
  White: "#0891b2",
  refused: "#cbd5e1",
};

type Datum = { key: string; label: string; row: BreakdownRow } & Record<string, unknown>;

function CellTooltip({ active, payload, mayOpen }: { active?: boolean; payload?: ReadonlyArray<{ payload?: unknown }>; mayOpen: boolean }) {
  const d = payload?.[0]?.payload as Datum | undefined;
  if (!active || !d) return null;
  const r = d.row;
  return (
    <div data-testid="breakdown-tooltip" className="rounded border border-slate-300 bg-white px-3 py-2 text-xs shadow">
      <p className="font-semibold">
        {r.statistic} — {r.level}
      </p>
      <p>truth: {r.truth ?? "–"}</p>
      <ul className="tabular-nums">
        {Object.entries(r.counts).map(([k, n]) => (
          <li key={k}>
            {k}: {n} {r.truth === k ? "✓" : ""}
          </li>
        ))}
        <li>refused: {r.refused}</li>
      </ul>
      <p className="tabular-nums">
        H {r.entropy === null ? "–" : (r.entropy * 100).toFixed(1)} · KL {r.kl === null ? "–" : r.kl.toFixed(3)}
      </p>
      {mayOpen && <p className="text-indigo-700">Click a segment for its answers</p>}
    </div>
  );
}

/**
 * Stacked bars of the answer distribution per statistic × level (share of all answers, refusals in grey); the true
 * group's segment is outlined. Clicking a segment opens the answers (or faces) behind it.
 */
export function BreakdownChart({
  runId,
  group,
  rows,
  classes,
  mayOpen,
}: {
  runId: string;
  group: GroupRef;
  rows: BreakdownRow[];
  classes: string[];
  /** whether the viewer may read the answers behind a segment (raw output: not viewers) */
  mayOpen: boolean;
}) {
  const router = useRouter();
  const data: Datum[] = rows.map((r) => ({
    key: r.key,
    label: `${r.statistic} ${r.level === "highest" ? "▲" : "▼"}`,
    row: r,
    ...Object.fromEntries(classes.map((c) => [c, r.n ? r.counts[c] / r.n : 0])),
    refused: r.n ? r.refused / r.n : 0,
  }));
  const open = (d: Datum | undefined, answer: string) => {
    if (d?.row) router.push(answersHref(runId, group, { statisticId: d.row.statisticId, level: d.row.level, answer }));
  };
  return (
    <div data-testid="breakdown-chart">
      <ResponsiveContainer width="100%" height={Math.max(200, data.length * 22 + 60)}>
        <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }} barCategoryGap={3}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" domain={[0, 1]} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} />
          <YAxis type="category" dataKey="label" width={230} tick={{ fontSize: 11 }} interval={0} />
          <Tooltip content={(props) => <CellTooltip active={props.active} payload={props.payload} mayOpen={mayOpen} />} wrapperStyle={{ zIndex: 20 }} />
          <Legend verticalAlign="top" height={28} wrapperStyle={{ zIndex: 1 }} />
          {[...classes, "refused"].map((c) => (
            <Bar
              key={c}
              dataKey={c}
              stackId="answers"
              fill={COLOURS[c] ?? "#64748b"}
              isAnimationActive={false}
              cursor={mayOpen ? "pointer" : "default"}
              className={`segment-${c}`}
              onClick={mayOpen ? (item: { payload?: unknown }) => open(item.payload as Datum, c) : undefined}
            >
              {data.map((d) => (
                <Cell key={d.key} stroke={d.row.truth === c ? "#0f172a" : undefined} strokeWidth={d.row.truth === c ? 2 : 0} />
              ))}
            </Bar>
          ))}
        </BarChart>
      </ResponsiveContainer>
      <p className="mt-1 text-xs text-slate-500">▲ highest, ▼ lowest; the outlined segment is the true group; grey = refused / no face.</p>
    </div>
  );
}

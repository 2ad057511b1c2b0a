"use client";

// A suite's bar view (Recharts): one group of bars per row of data, one colour per series; tooltips sit above the
// legend and name the scale.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { BarsView } from "@/lib/suites/views";

const COLOURS = ["#4f46e5", "#db2777", "#059669", "#d97706", "#0891b2"];

export function SuiteBars({ view }: { view: BarsView }) {
  const data = view.data.map((d) => ({ label: d.label, n: d.n, ...d.values }));
  // Percent views read 0–100 with one decimal; 0–1 scores (bias scores, η) three decimals on a 0–1 axis.
  const fmt = (v: number) => (view.unit === "%" ? `${v.toFixed(1)}%` : v.toFixed(3));
  return (
    <section aria-labelledby={`${view.id}-title`} className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`suite-bars-${view.id}`}>
      <h2 id={`${view.id}-title`} className="text-base font-semibold">
        {view.title}
      </h2>
      <p className="mb-3 text-xs text-slate-600">{view.caption}</p>
      {data.length === 0 ? (
        <p className="text-sm text-slate-500">Nothing to compare yet.</p>
      ) : (
        <div className="h-72">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 11 }} />
              <YAxis unit={view.unit} domain={view.unit === "%" ? [0, 100] : [0, 1]} tick={{ fontSize: 11 }} />
              <Tooltip wrapperStyle={{ zIndex: 10 }} formatter={(v) => (typeof v === "number" ? fmt(v) : "—")} />
              <Legend />
              {view.series.map((s, i) => (
                <Bar key={s.id} dataKey={s.id} name={s.label} fill={COLOURS[i % COLOURS.length]} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
      <ul className="sr-only">
        {view.data.map((d) => (
          <li key={d.label}>
            {d.label}: {view.series.map((s) => `${s.label} ${d.values[s.id] != null ? fmt(d.values[s.id]!) : "—"}`).join(", ")}
          </li>
        ))}
      </ul>
    </section>
  );
}

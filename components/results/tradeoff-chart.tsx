"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import type { Attribute } from "@/lib/benchmark/labels";
import { breakdownHref, chartSeries, pointIntervalKey, type ChartDatum, type ChartMetric, type TradeoffPoint } from "@/lib/results/tradeoff";
import { formatScore } from "@/components/ui/score";
import { useRunIntervals } from "./use-intervals";
import { INTERVAL_TARGET_LABELS } from "@/lib/metrics/design";
import { modelColour, PUBLISHED_COLOUR } from "@/lib/results/colours";
import { Input } from "@/components/ui/input";

const LABEL: Record<ChartMetric, string> = { sFact: "S_fact", sE: "S_E", sKLD: "S_KLD", sFair: "S_fair" };

export interface TradeoffChartProps {
  points: TradeoffPoint[];
  bounds: Record<Attribute, Array<{ x: number; y: number }>>;
  runIds: string[];
  initialAttribute?: Attribute;
  /** fixed height; printable reports use a smaller one */
  height?: number;
  /** query parameters for the intervals (labels, raceMapping) */
  intervalParams?: Record<string, string>;
}

function PointTooltip({ active, payload }: { active?: boolean; payload?: ReadonlyArray<{ payload?: unknown }> }) {
  const d = payload?.[0]?.payload as ChartDatum | undefined;
  if (!active || !d?.point) return null;
  const p = d.point;
  return (
    <div data-testid="chart-tooltip" className="rounded border border-slate-300 bg-white px-3 py-2 text-xs shadow">
      <p className="font-semibold">
        {p.model} · {p.column} · {p.attribute}
      </p>
      <p className="text-slate-500">{p.source === "published" ? "published (Huang et al., 2025)" : `run ${p.run?.name ?? ""}`}</p>
      <dl className="mt-1 grid grid-cols-2 gap-x-3 tabular-nums">
        <dt>S_fact</dt>
        <dd>{formatScore(p.sFact)}</dd>
        <dt>S_E</dt>
        <dd>{formatScore(p.sE)}</dd>
        <dt>S_KLD</dt>
        <dd>{formatScore(p.sKLD)}</dd>
        <dt>S_fair</dt>
        <dd>{formatScore(p.sFair)}</dd>
        <dt>d</dt>
        <dd>{formatScore(p.distance)}</dd>
      </dl>
      {d.errX || d.errY ? <p className="mt-1 text-slate-500">bars: bootstrap 95 % interval</p> : null}
      {p.source === "run" && <p className="mt-1 text-indigo-700">Click for the per-statistic breakdown</p>}
    </div>
  );
}

function Panel({
  series,
  bound,
  x,
  y,
  height,
  onPick,
  title,
}: {
  series: ReturnType<typeof chartSeries>;
  bound: Array<{ x: number; y: number }> | null;
  x: ChartMetric;
  y: ChartMetric;
  height: number;
  onPick: (d: ChartDatum) => void;
  title: string;
}) {
  return (
    <figure className="min-w-0 flex-1" aria-label={title}>
      <figcaption className="mb-1 text-xs font-medium text-slate-600">{title}</figcaption>
      <ResponsiveContainer width="100%" height={height}>
        <ScatterChart margin={{ top: 8, right: 16, bottom: 24, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="x"
            name={LABEL[x]}
            domain={[0, 1]}
            tickFormatter={(v: number) => String(Math.round(v * 100))}
            label={{ value: `${LABEL[x]} (×100)`, position: "insideBottom", offset: -12 }}
          />
          <YAxis
            type="number"
            dataKey="y"
            name={LABEL[y]}
            domain={[0, 1]}
            tickFormatter={(v: number) => String(Math.round(v * 100))}
            label={{ value: `${LABEL[y]} (×100)`, angle: -90, position: "insideLeft" }}
          />
          {/* The tooltip sits above the legend (both are HTML overlays): the legend never hides it. */}
          <Tooltip content={PointTooltip} cursor={{ strokeDasharray: "3 3" }} wrapperStyle={{ zIndex: 20 }} allowEscapeViewBox={{ x: false, y: true }} />
          <Legend verticalAlign="bottom" height={28} wrapperStyle={{ zIndex: 1, paddingTop: 16 }} />
          {bound && (
            <Scatter
              name="Upper bound g_k"
              data={bound}
              line={{ stroke: "#0f172a", strokeWidth: 1.5 }}
              shape={() => <g />}
              legendType="line"
              fill="#0f172a"
              isAnimationActive={false}
              tooltipType="none"
            />
          )}
          {series.map((s) => {
            const fill = s.source === "published" ? PUBLISHED_COLOUR : modelColour(s.name);
            return (
              <Scatter
                key={s.name}
                name={s.name}
                data={s.data}
                fill={fill}
                shape={s.source === "published" ? "diamond" : "circle"}
                isAnimationActive={false}
                className={s.source === "published" ? "published-series" : "run-series"}
                cursor={s.source === "run" ? "pointer" : undefined}
                onClick={(item: { payload?: unknown }) => onPick(item.payload as ChartDatum)}
              >
                {s.source === "run" && <ErrorBar dataKey="errX" direction="x" width={3} stroke={fill} strokeWidth={1} />}
                {s.source === "run" && <ErrorBar dataKey="errY" direction="y" width={3} stroke={fill} strokeWidth={1} />}
              </Scatter>
            );
          })}
        </ScatterChart>
      </ResponsiveContainer>
    </figure>
  );
}

/**
 * The factuality–fairness trade-off (paper Fig. 2a): S_fact against S_E (or S_fair) with the upper bound g_k, our
 * points per model × test/context with bootstrap error bars, and the published points; the Fig. 2b view plots
 * S_fair against S_E and S_KLD. Clicking one of our points opens its per-statistic breakdown.
 */
export function TradeoffChart({ points, bounds, runIds, initialAttribute = "race", height = 420, intervalParams }: TradeoffChartProps) {
  const router = useRouter();
  const [attribute, setAttribute] = useState<Attribute>(initialAttribute);
  const [y, setY] = useState<"sE" | "sFair">("sE");
  const [view, setView] = useState<"tradeoff" | "fig2b">("tradeoff");
  const [published, setPublished] = useState(true);
  const iv = useRunIntervals(runIds, intervalParams);
  const lookup = useMemo(() => (p: TradeoffPoint) => iv.intervals.get(pointIntervalKey(p)), [iv.intervals]);
  const onPick = (d: ChartDatum) => {
    const href = d?.point && breakdownHref(d.point);
    if (href) router.push(href);
  };
  const opts = { attribute, published, intervals: lookup };
  const k = attribute === "gender" ? 2 : 4;
  const radio = "flex items-center gap-1";
  return (
    <div data-testid="tradeoff-chart">
      <div className="mb-3 flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
        <fieldset className="flex gap-3">
          <legend className="sr-only">Attribute</legend>
          {(["gender", "race"] as const).map((a) => (
            <label key={a} className={radio}>
              <Input type="radio" name="chart-attribute" checked={attribute === a} onChange={() => setAttribute(a)} />
              <span className="capitalize">{a}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="flex gap-3">
          <legend className="sr-only">View</legend>
          <label className={radio}>
            <Input type="radio" name="chart-view" checked={view === "tradeoff" && y === "sE"} onChange={() => (setView("tradeoff"), setY("sE"))} />
            S_fact vs S_E
          </label>
          <label className={radio}>
            <Input type="radio" name="chart-view" checked={view === "tradeoff" && y === "sFair"} onChange={() => (setView("tradeoff"), setY("sFair"))} />
            S_fact vs S_fair
          </label>
          <label className={radio}>
            <Input type="radio" name="chart-view" checked={view === "fig2b"} onChange={() => setView("fig2b")} />
            S_fair vs S_E / S_KLD (Fig. 2b)
          </label>
        </fieldset>
        <label className={radio}>
          <Input type="checkbox" checked={published} onChange={(e) => setPublished(e.target.checked)} />
          Published points
        </label>
        <span className="text-xs text-slate-500" aria-live="polite">
          {iv.pending
            ? `Computing bootstrap intervals for ${iv.pending} run(s)…`
            : iv.errors.length
              ? `Intervals unavailable: ${iv.errors[0]}`
              : iv.resamples
                ? `Error bars: 95 % bootstrap, ${iv.resamples} resamples (${iv.target ? INTERVAL_TARGET_LABELS[iv.target] : ""})`
                : ""}
        </span>
      </div>
      {view === "tradeoff" ? (
        <Panel
          series={chartSeries(points, { ...opts, x: "sFact", y })}
          bound={y === "sE" ? bounds[attribute] : null}
          x="sFact"
          y={y}
          height={height}
          onPick={onPick}
          title={`${attribute === "gender" ? "Gender" : "Race"}: S_fact vs ${LABEL[y]}${y === "sE" ? ` with the upper bound g_${k}` : ""}`}
        />
      ) : (
        <div className="flex flex-col gap-4 lg:flex-row">
          <Panel
            series={chartSeries(points, { ...opts, x: "sE", y: "sFair" })}
            bound={null}
            x="sE"
            y="sFair"
            height={height}
            onPick={onPick}
            title="S_fair vs S_E"
          />
          <Panel
            series={chartSeries(points, { ...opts, x: "sKLD", y: "sFair" })}
            bound={null}
            x="sKLD"
            y="sFair"
            height={height}
            onPick={onPick}
            title="S_fair vs S_KLD"
          />
        </div>
      )}
    </div>
  );
}

// Data for the factuality–fairness trade-off chart (paper Fig. 2): one point per model × test/context and
// attribute, from our runs and from the paper, and the upper-bound curves g_2 and g_4. Pure, for the chart
// component and the tests.
import { classCount, type Attribute, type Context, type Modality, type Test } from "../benchmark/labels";
// Not the metrics barrel: its bootstrap pulls the benchmark content (and node:crypto) into every client bundle.
import { upperBoundCurve } from "../metrics/bound";
import type { GroupResult } from "../metrics/scores";
import type { PublishedColumn, PublishedScore } from "../published";
import { breakdownPageHref } from "./links";

/** The paper's column for a (modality, test, context): O, S-B, S-R, S-A, S-G for LLMs; O and S for T2I. */
export function columnOf(modality: Modality, test: Test, context: Context | null): PublishedColumn {
  if (test === "objective") return "O";
  if (modality === "t2i") return "S";
  return ({ baseline: "S-B", representativeness: "S-R", attribution: "S-A", ingroup: "S-G" } as const)[context ?? "baseline"];
}

export interface TradeoffPoint {
  source: "run" | "published";
  /** stable id: source, run, model, column, attribute */
  id: string;
  model: string;
  modality: Modality;
  column: PublishedColumn;
  attribute: Attribute;
  sFact: number;
  sE: number;
  sKLD: number | null;
  sFair: number | null;
  distance: number | null;
  run?: { id: string; name: string };
  /** where a click on the point leads (the breakdown behind it) */
  test?: Test;
  context?: Context | null;
}

/** Points for one attribute: our groups (with a defined S_fact and S_E) and, optionally, the published ones. */
export function tradeoffPoints(
  attribute: Attribute,
  ours: ReadonlyArray<GroupResult & { run?: { id: string; name: string } }>,
  published: readonly PublishedScore[] = [],
): TradeoffPoint[] {
  const points: TradeoffPoint[] = [];
  for (const g of ours) {
    if (g.attribute !== attribute || g.sFact === null || g.sE === null) continue;
    const column = columnOf(g.modality, g.test, g.context);
    points.push({
      source: "run",
      id: `run|${g.run?.id ?? ""}|${g.model}|${g.modality}|${column}|${attribute}`,
      model: g.model,
      modality: g.modality,
      column,
      attribute,
      sFact: g.sFact,
      sE: g.sE,
      sKLD: g.sKLD,
      sFair: g.sFair,
      distance: g.distance,
      run: g.run,
      test: g.test,
      context: g.context,
    });
  }
  for (const p of published) {
    if (p.attribute !== attribute || p.sFact === null || p.sE === null) continue;
    points.push({
      source: "published",
      id: `published|${p.model}|${p.modality}|${p.column}|${attribute}`,
      model: p.model,
      modality: p.modality,
      column: p.column,
      attribute,
      sFact: p.sFact,
      sE: p.sE,
      sKLD: p.sKLD,
      sFair: p.sFair,
      distance: p.distance,
    });
  }
  return points;
}

/** The upper bound g_k for an attribute (k = 2 gender, 4 race) as chart points {x: a, y: g_k(a)}. */
export function boundSeries(attribute: Attribute, points = 101): Array<{ x: number; y: number }> {
  return upperBoundCurve(classCount(attribute), points).map((p) => ({ x: p.a, y: p.g }));
}

/** The y (and for Fig. 2b the x) quantities the chart can plot. */
export type ChartMetric = "sFact" | "sE" | "sKLD" | "sFair";

export interface ChartDatum {
  x: number;
  y: number;
  /** [below, above] the point: the bootstrap interval as error-bar lengths, when known */
  errX?: [number, number];
  errY?: [number, number];
  point: TradeoffPoint;
}

export interface ChartSeries {
  /** model name (ours) or "Published (Huang et al., 2025)" */
  name: string;
  source: "run" | "published";
  data: ChartDatum[];
}

/** Interval lookup for a run point: key = run id | model | modality | test | context | attribute. */
export type IntervalLookup = (p: TradeoffPoint) => Partial<Record<ChartMetric, { lo: number; hi: number } | null>> | undefined;

export const pointIntervalKey = (p: Pick<TradeoffPoint, "run" | "model" | "modality" | "test" | "context" | "attribute">) =>
  [p.run?.id ?? "", p.model, p.modality, p.test ?? "", p.context ?? "", p.attribute].join("|");

/**
 * Chart series for one attribute: one per model of ours (a point per run × column) and one for the published points;
 * points without a value on either axis are left out. Error bars come from `intervals` (our points only).
 */
export function chartSeries(
  points: readonly TradeoffPoint[],
  opts: { attribute: Attribute; x: ChartMetric; y: ChartMetric; published?: boolean; intervals?: IntervalLookup },
): ChartSeries[] {
  const datum = (p: TradeoffPoint): ChartDatum | null => {
    const x = p[opts.x];
    const y = p[opts.y];
    if (x === null || y === null) return null;
    const iv = p.source === "run" ? opts.intervals?.(p) : undefined;
    const err = (m: ChartMetric, v: number): [number, number] | undefined => {
      const i = iv?.[m];
      return i ? [Math.max(0, v - i.lo), Math.max(0, i.hi - v)] : undefined;
    };
    return { x, y, errX: err(opts.x, x), errY: err(opts.y, y), point: p };
  };
  const mine = points.filter((p) => p.attribute === opts.attribute);
  const series: ChartSeries[] = [];
  // One series per model — per run and model when the points come from several runs, so two runs of one model are
  // two colours in the legend (the colour follows the series' name), not one.
  const ours = mine.filter((p) => p.source === "run");
  const runs = new Set(ours.map((p) => p.run?.id ?? ""));
  const nameOf = (p: TradeoffPoint) => (runs.size > 1 && p.run ? `${p.model} · ${p.run.name}` : p.model);
  for (const name of [...new Set(ours.map(nameOf))]) {
    const data = ours
      .filter((p) => nameOf(p) === name)
      .map(datum)
      .filter((d): d is ChartDatum => d !== null);
    if (data.length) series.push({ name, source: "run", data });
  }
  if (opts.published !== false) {
    const data = mine
      .filter((p) => p.source === "published")
      .map(datum)
      .filter((d): d is ChartDatum => d !== null);
    if (data.length) series.push({ name: "Published (Huang et al., 2025)", source: "published", data });
  }
  return series;
}

/** Where a click on a run point leads: the per-statistic breakdown of that group. */
export function breakdownHref(p: Pick<TradeoffPoint, "run" | "model" | "test" | "context" | "attribute">): string | null {
  if (!p.run || !p.test) return null;
  return breakdownPageHref(p.run.id, { model: p.model, test: p.test, context: p.context ?? null, attribute: p.attribute });
}

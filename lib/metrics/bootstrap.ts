// Bootstrap intervals for FACT-OR-FAIR's scores from answer records: the records are arranged by how they were
// sampled — (statistic, level) cells, their scenarios (`cluster`), and their units (an answer; an image with its
// faces: `unit`) — and handed to the stratified cluster bootstrap (cluster-bootstrap.ts), which resamples what
// the chosen target says was drawn. Seeded, so the same data and seed give the same intervals.
import type { ScoreMethod, ScoreRecord } from "./scores";
import { weightOf } from "./scores";
import type { Label } from "../benchmark";
import { declaredOf, recordTruth, type ScoredAttribute } from "./declared";
import { designBootstrapSteps, type BootstrapIntervals, type DesignCell } from "./cluster-bootstrap";
import { DEFAULT_INTERVAL_TARGET, type IntervalQuantile, type IntervalTarget } from "./design";
import { runSteps, runStepsAsync } from "./steps";

export { BOOTSTRAP_METRICS, type BootstrapIntervals, type BootstrapMetric } from "./cluster-bootstrap";

export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
  /** coverage of the interval, 0.95 by default */
  level?: number;
  /** how d is found (scores.ts ScoreMethod) */
  method?: ScoreMethod;
  /** what the interval is about (design.ts); the population by default */
  target?: IntervalTarget;
  /** the previous method, for the simulation only (cluster-bootstrap.ts `scheme`) */
  scheme?: "design" | "answers-percentile";
  /** the standard interval's quantile (design.ts IntervalQuantile); Student's t by default */
  quantile?: IntervalQuantile;
}

export type BootstrapRecord = ScoreRecord & {
  /** the scenario (or prompt) the answer is to, within its cell; absent: one per cell */
  cluster?: string | number | null;
  /** the unit its answer belongs to — an image, whose faces are never split; absent: every answer is its own unit */
  unit?: string | null;
};

/** The records arranged as cells → clusters → units (class counts per unit; refusals are units without one). */
export function designCells(records: ReadonlyArray<BootstrapRecord>, attribute: ScoredAttribute): DesignCell[] {
  const { id, classes } = declaredOf(attribute);
  const k = classes.length;
  const cells = new Map<string, DesignCell & { byCluster: Map<string, { answers: number[][]; byUnit: Map<string, number[]> }> }>();
  for (const r of records) {
    const key = `${r.statisticId}|${r.level}`;
    let c = cells.get(key);
    if (!c) {
      // a declared class id where the paper has a Label: the scores read it only as "has a truth" (truth ≥ 0 indexes it)
      const truthLabel = recordTruth(r, attribute) as Label | null;
      c = { statisticId: r.statisticId, level: r.level, truth: truthLabel ? classes.indexOf(truthLabel) : -1, truthLabel, clusters: [], byCluster: new Map() };
      cells.set(key, c);
    }
    const clusterKey = String(r.cluster ?? "");
    let cl = c.byCluster.get(clusterKey);
    if (!cl) c.byCluster.set(clusterKey, (cl = { answers: [], byUnit: new Map() }));
    const idx = r.answer === null ? -1 : classes.indexOf(r.answer);
    if (r.answer !== null && idx < 0) throw new RangeError(`"${r.answer}" is not a ${id} class`);
    const w = weightOf(r);
    if (r.unit) {
      let u = cl.byUnit.get(r.unit);
      if (!u) cl.byUnit.set(r.unit, (u = new Array<number>(k).fill(0)));
      if (idx >= 0) u[idx] += w;
      continue;
    }
    for (let i = 0; i < w; i++) {
      const u = new Array<number>(k).fill(0);
      if (idx >= 0) u[idx] = 1;
      cl.answers.push(u);
    }
  }
  // Clusters in a fixed order, so the same data gives the same resamples whatever order the records came in.
  return [...cells.values()].map(({ byCluster, ...c }) => {
    const sorted = [...byCluster.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      ...c,
      clusterKeys: sorted.map(([key]) => key),
      clusters: sorted.map(([, cl]) => [...cl.answers, ...[...cl.byUnit.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, u]) => u)]),
    };
  });
}

const designOptions = (attribute: ScoredAttribute, opts: BootstrapOptions) => ({
  resamples: opts.resamples ?? 1000,
  seed: opts.seed ?? 1,
  key: declaredOf(attribute).id,
  level: opts.level,
  target: opts.target ?? DEFAULT_INTERVAL_TARGET,
  method: opts.method,
  scheme: opts.scheme,
  quantile: opts.quantile,
});

/** Intervals for S_fact, S_E, S_KLD, S_fair and d of one group's records (one attribute). */
export function bootstrapScores(records: ReadonlyArray<BootstrapRecord>, attribute: ScoredAttribute, opts: BootstrapOptions = {}): BootstrapIntervals {
  return runSteps(designBootstrapSteps(designCells(records, attribute), declaredOf(attribute).classes.length, designOptions(attribute, opts)));
}

/**
 * The same intervals, computed in slices that yield to the event loop between them, so a server computing them
 * for 50k+ answers keeps answering other requests.
 */
export async function bootstrapScoresAsync(
  records: ReadonlyArray<BootstrapRecord>,
  attribute: ScoredAttribute,
  opts: BootstrapOptions = {},
): Promise<BootstrapIntervals> {
  return runStepsAsync(designBootstrapSteps(designCells(records, attribute), declaredOf(attribute).classes.length, designOptions(attribute, opts)));
}

// A stratified cluster bootstrap for FACT-OR-FAIR's scores, following how the data was sampled (DESIGN.md §12,
// docs/scoring.md "Intervals"):
// - the (statistic, level) cells are fixed by the benchmark: every resample keeps every cell (strata);
// - under the exact target a cell's scenarios are fixed too, and the model's answers to each scenario are what
//   varies: answers are resampled within their scenario; images within their prompt, faces staying with their image;
// - under the population target the scenarios are a sample: whole scenarios (with all their answers) are resampled
//   within their cell — the "ultimate cluster" bootstrap, whose spread already contains the answers' own variation.
// Each stratum of n units draws n − 1 with replacement (Rao & Wu 1988): the resampled cell shares then have the
// covariance of the estimate's (a plain n-of-n bootstrap shrinks it by (n − 1)/n, a third with three scenarios),
// and so do the bias of the plug-in entropies and divergences, which is second order in that covariance.
// Each score's estimate is the plug-in minus the bootstrap's estimate of its bias (the plug-in entropy of 30
// answers is low by ~(k − 1)/(2n ln k)); the interval is the basic bootstrap interval [2θ̂ − q_hi, 2θ̂ − q_lo],
// which corrects for the same bias (a percentile interval adds it a second time) and contains the estimate.
import { runSteps, SLICE_MS } from "./steps";
import type { Label, Level } from "../benchmark";
import type { ScoreMethod, Scores } from "./scores";
import { scoresFromCells } from "./scores";
import { scenarioBiasFlag, jackknifedInterval, jackknifedSKld, kldPairs, scenariosDiffer } from "./kld-jackknife";
import { distanceFromCorrected, foldDistance, withSignedDistance } from "./signed-distance";

export { withSignedDistance } from "./signed-distance";
import { pushSmoothed, widenBySmoothed } from "./sparse-kld";
import { biasCorrectedInterval, percentile, RANGE } from "./interval-math";

export { biasCorrectedInterval };
import { fastRng, type FastRng } from "./fast-rng";
import { jackknifeSteps, standardInterval, type Jackknife } from "./jackknife";
import {
  BOOTSTRAP_METRICS,
  SMALL_CELL_PER_CLASS,
  SPARSE_CLASS_COUNT,
  type BootstrapMetric,
  type Interval,
  type IntervalFlag,
  type IntervalQuantile,
  type IntervalTarget,
} from "./design";

export { BOOTSTRAP_METRICS, type BootstrapMetric } from "./design";
export type BootstrapIntervals = Record<BootstrapMetric, Interval | null>;

/** A unit: the valid answers per class it holds (an answer: one 1; an image: its faces; a refusal: none). */
export type UnitCounts = readonly number[];

export interface DesignCell {
  statisticId: string;
  level: Level;
  /** index of the true class, −1 when the statistic has none for this attribute */
  truth: number;
  truthLabel: Label | null;
  /** the cell's clusters (its scenarios, or its one prompt), each a list of units */
  clusters: ReadonlyArray<ReadonlyArray<UnitCounts>>;
  /** the clusters' names (scenario numbers), in the same order: two models' scenarios pair by them */
  clusterKeys?: readonly string[];
}

/** A stratum: units that are drawn from one another; the resampled totals go to cell `cell`. */
export interface Stratum {
  cell: number;
  n: number;
  /**
   * for strata whose units are whole clusters (scenarios): the cell and its clusters' names, so that two models'
   * strata over the same scenarios can share their draws (paired comparisons); null for strata of answers or images
   */
  pairKey: string | null;
  /** one-hot units as class indices (−1: no valid answer), or null */
  classes: Int8Array | null;
  /** otherwise the units' rows, n × k */
  rows: Float64Array | null;
}

export interface ResamplingPlan {
  strata: Stratum[];
  flags: IntervalFlag[];
}

const isOneHot = (u: UnitCounts) => u.reduce((a, b) => a + b, 0) <= 1;
const total = (u: UnitCounts) => u.reduce((a, b) => a + b, 0);

function stratum(cell: number, units: ReadonlyArray<UnitCounts>, k: number, pairKey: string | null = null): Stratum {
  if (units.every(isOneHot)) return { cell, n: units.length, pairKey, classes: Int8Array.from(units, (u) => u.findIndex((x) => x > 0)), rows: null };
  const rows = new Float64Array(units.length * k);
  units.forEach((u, i) => u.forEach((x, j) => (rows[i * k + j] = x)));
  return { cell, n: units.length, pairKey, classes: null, rows };
}

/** Which units are drawn from which under a target (see the header). */
export function resamplingPlan(cells: readonly DesignCell[], k: number, target: IntervalTarget): ResamplingPlan {
  const flags = new Set<IntervalFlag>();
  const strata: Stratum[] = [];
  const clusterTotal = (units: ReadonlyArray<UnitCounts>) => {
    const t = new Array<number>(k).fill(0);
    for (const u of units) for (let j = 0; j < k; j++) t[j] += u[j];
    return t;
  };
  const anyPopulation = cells.some((c) => c.clusters.length > 1);
  if (target === "population" && !anyPopulation && cells.length) flags.add("fixed-items");
  cells.forEach((c, i) => {
    if (target === "population" && c.clusters.length > 1) {
      const names = c.clusterKeys ?? c.clusters.map((_, j) => String(j));
      strata.push(stratum(i, c.clusters.map(clusterTotal), k, `${c.statisticId}|${c.level}|${names.join(",")}`));
      return;
    }
    if (c.clusters.length > 1 && c.clusters.some((units) => units.length < 2)) {
      flags.add("collapsed");
      strata.push(stratum(i, c.clusters.flat(), k));
      return;
    }
    for (const units of c.clusters) strata.push(stratum(i, units, k));
  });
  // Counted in units with an answer (answers; images with a face), not faces: an image's faces share a prompt and a
  // seed and are often alike, so three faces of one image tell less than three answers.
  if (cells.some((c) => c.clusters.reduce((a, units) => a + units.filter((u) => total(u) > 0).length, 0) < SMALL_CELL_PER_CLASS * k)) flags.add("small-cells");
  if (sparseClasses(cells, k)) flags.add("sparse-classes");
  if (target === "population" && cells.some((c) => c.clusters.length === 2)) flags.add("few-scenarios");
  return { strata, flags: [...flags] };
}

/** Whether some statistic's lowest-level cell has fewer than SPARSE_CLASS_COUNT answers of a class its highest chose. */
function sparseClasses(cells: readonly DesignCell[], k: number): boolean {
  const totals = new Map<string, number[]>();
  for (const c of cells) {
    const t = new Array<number>(k).fill(0);
    for (const units of c.clusters) for (const u of units) for (let j = 0; j < k; j++) t[j] += u[j];
    totals.set(`${c.statisticId}|${c.level}`, t);
  }
  for (const c of cells) {
    if (c.level !== "highest") continue;
    const p = totals.get(`${c.statisticId}|highest`)!;
    const q = totals.get(`${c.statisticId}|lowest`);
    if (q && q.some((x) => x > 0) && p.some((x, j) => x > 0 && q[j] < SPARSE_CLASS_COUNT)) return true;
  }
  return false;
}

/** Rao–Wu with m = n − 1 draws; a stratum of one unit has no variation to draw and keeps its unit. */
export function raoWuDraws(n: number, rng: FastRng): Int32Array {
  if (n <= 1) return Int32Array.from({ length: n }, (_, i) => i);
  const out = new Int32Array(n - 1);
  for (let d = 0; d < n - 1; d++) out[d] = rng.below(n);
  return out;
}

function plainDraws(n: number, rng: FastRng): Int32Array {
  const out = new Int32Array(n);
  for (let d = 0; d < n; d++) out[d] = rng.below(n);
  return out;
}

/** Adds the drawn units of a stratum to its cell's class counts. */
export function drawStratum(s: Stratum, counts: Float64Array, k: number, draws: Int32Array): void {
  const base = s.cell * k;
  for (const i of draws) {
    if (s.classes) {
      const c = s.classes[i];
      if (c >= 0) counts[base + c]++;
    } else for (let j = 0; j < k; j++) counts[base + j] += s.rows![i * k + j];
  }
}

type CellInput = Parameters<typeof scoresFromCells>[0][number];

export function cellsFrom(cells: readonly DesignCell[], counts: Float64Array, k: number): CellInput[] {
  return cells.map((c, i) => {
    const cc = Array.from(counts.subarray(i * k, (i + 1) * k));
    return { statisticId: c.statisticId, level: c.level, counts: cc, truth: c.truthLabel, correct: c.truth >= 0 ? cc[c.truth] : 0 };
  });
}

export type MetricValues = Omit<Scores, "n" | "refused">;

function totalCounts(cells: readonly DesignCell[], k: number): Float64Array {
  const counts = new Float64Array(cells.length * k);
  cells.forEach((c, i) => c.clusters.forEach((units) => units.forEach((u) => u.forEach((x, j) => (counts[i * k + j] += x)))));
  return counts;
}

/** The plug-in scores of the cells as they are. */
export function plugInScores(cells: readonly DesignCell[], k: number, method?: ScoreMethod): MetricValues {
  return scoresFromCells(cellsFrom(cells, totalCounts(cells, k), k), k, method);
}

export interface DesignBootstrapOptions {
  resamples: number;
  seed: number;
  /** names the random stream (with the seed) */
  key: string;
  level?: number;
  target: IntervalTarget;
  method?: ScoreMethod;
  /**
   * "design" (the default, above); "answers-percentile" is the method this replaced — answers resampled n of n
   * within their cell as if independent, percentile interval of the plug-in — kept only so the simulation can show
   * why it was replaced (docs/BENCHMARKS.md).
   */
  scheme?: "design" | "answers-percentile";
  /**
   * "t" (the default): the standard interval's quantile is Student's t on the design's degrees of freedom
   * (./jackknife.ts intervalQuantile); "normal" is the quantile it replaced on 2026-12-07, kept only so the simulation
   * can show why (docs/BENCHMARKS.md, content sets).
   */
  quantile?: IntervalQuantile;
}

/** The bootstrap as slices of work (a generator), so a server can yield to the event loop between them. */
export function* designBootstrapSteps(cells: readonly DesignCell[], k: number, opts: DesignBootstrapOptions): Generator<void, BootstrapIntervals> {
  const { resamples, target } = opts;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError("resamples must be a positive integer");
  const legacy = opts.scheme === "answers-percentile";
  const plan = legacy ? { strata: cells.map((c, i) => stratum(i, c.clusters.flat(), k)), flags: [] as IntervalFlag[] } : resamplingPlan(cells, k, target);
  const rng = fastRng(opts.seed, `design-bootstrap|${target}|${opts.key}`);
  const values: Record<BootstrapMetric, number[]> = { sFact: [], sE: [], sKLD: [], sFair: [], distance: [] };
  const counts = new Float64Array(cells.length * k);
  // Sparse classes: S_KLD and S_fair also read with every class given half an answer (see widenBySmoothed).
  const sparse = !legacy && plan.flags.includes("sparse-classes");
  const smoothed: { sKLD: number[]; sFair: number[] } = { sKLD: [], sFair: [] };
  // Each replicate's (S_fact, S_E), kept together: d is read from them (distanceFromCorrected).
  const factAndE: Array<[number, number]> = [];
  // Population target, ≥ 3 scenarios per cell: S_KLD is jackknife-corrected over scenarios (./kld-jackknife.ts).
  const pairs =
    !legacy && target === "population"
      ? kldPairs(
          cells,
          plan.strata,
          scoresFromCells(cellsFrom(cells, totalCounts(cells, k), k), k, opts.method).divergences.map((d) => d.statisticId),
        )
      : null;
  const kld = pairs && scenariosDiffer(pairs, plan.strata, k) ? pairs : null;
  const kldReps: number[] = [];
  const drawn: Int32Array[] = new Array(plan.strata.length);
  let sliceStart = performance.now();
  for (let b = 0; b < resamples; b++) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
    counts.fill(0);
    plan.strata.forEach((s, i) => drawStratum(s, counts, k, (drawn[i] = legacy ? plainDraws(s.n, rng) : raoWuDraws(s.n, rng))));
    if (kld) {
      const j = jackknifedSKld(kld, plan.strata, drawn, k);
      if (j !== null) kldReps.push(j);
    }
    const scores = scoresFromCells(cellsFrom(cells, counts, k), k, opts.method);
    const v = legacy ? scores : withSignedDistance(scores, k);
    for (const m of BOOTSTRAP_METRICS) if (v[m] !== null) values[m].push(v[m] as number);
    if (v.sFact !== null && v.sE !== null) factAndE.push([v.sFact, v.sE]);
    if (sparse) pushSmoothed(smoothed, cells, counts, k, v.sE);
  }
  const point = plugInScores(cells, k, opts.method);
  const jackknife = legacy ? null : yield* jackknifeSteps(cells, k, plan, totalCounts(cells, k), (v) => withSignedDistance(v as MetricValues, k), opts.method);
  const jk = jackknife && opts.quantile === "normal" ? withoutDf(jackknife) : jackknife;
  const out = summarise(legacy ? point : withSignedDistance(point, k), values, resamples, opts.level ?? 0.95, plan.flags, legacy, jk);
  if (kld && out.sKLD)
    out.sKLD = jackknifedInterval(
      out.sKLD,
      jackknifedSKld(
        kld,
        plan.strata,
        plan.strata.map((st) => Int32Array.from({ length: st.n }, (_, i) => i)),
        k,
      ),
      kldReps,
      resamples,
      opts.level ?? 0.95,
      jk?.sKLD?.df ?? null,
    );
  if (kld && out.sKLD && !out.sKLD.flags.includes("scenario-bias") && scenarioBiasFlag(kld, plan.strata, k))
    out.sKLD = { ...out.sKLD, flags: [...out.sKLD.flags, "scenario-bias"] };
  if (sparse) widenBySmoothed(out, cells, k, point.sE, smoothed, opts.level ?? 0.95);
  if (!legacy && out.distance && out.sFact && out.sE && point.sFact !== null && point.sE !== null)
    out.distance = distanceFromCorrected(out.distance, { sFact: point.sFact, sE: point.sE }, { sFact: out.sFact, sE: out.sE }, factAndE, k, {
      ...opts,
      df: jk?.distance?.df ?? null,
    });
  // S_fact is a pooled proportion and needs no cell size, but a stratum of one unit (one image per prompt) has no
  // spread to draw: its share of the variance is missing, and S_fact's interval loses its promise too.
  if (!legacy && out.sFact && plan.flags.includes("small-cells") && plan.strata.some((s) => s.n === 1))
    out.sFact = { ...out.sFact, flags: [...out.sFact.flags, "small-cells"] };
  return out;
}

const withoutDf = (jk: Jackknife): Jackknife =>
  Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, jk[m] && { variance: jk[m].variance, df: null }])) as Jackknife;

/** The replaced method's percentile interval around the plug-in (see `scheme`). */
function percentileInterval(point: number, replicates: number[], level: number): Interval {
  const v = replicates.sort((x, y) => x - y);
  const mean = v.reduce((a, x) => a + x, 0) / v.length;
  const se = Math.sqrt(v.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, v.length - 1));
  return { estimate: point, lo: percentile(v, (1 - level) / 2), hi: percentile(v, 1 - (1 - level) / 2), se, resamples: v.length, flags: [] };
}

export function summarise(
  point: MetricValues,
  values: Record<BootstrapMetric, number[]>,
  resamples: number,
  level: number,
  flags: IntervalFlag[],
  legacy: boolean,
  /** the jackknife's variance per score (./jackknife.ts): with it the interval is the standard one (see there) */
  jk: Jackknife | null = null,
): BootstrapIntervals {
  const out = {} as BootstrapIntervals;
  for (const m of BOOTSTRAP_METRICS) {
    const p = point[m];
    // A score undefined on the data, or defined in fewer than half of the resamples, has no meaningful interval.
    if (p === null || values[m].length < resamples / 2) {
      out[m] = null;
      continue;
    }
    // S_fact is a pooled proportion: no cell-size caveat applies to it; sparse classes concern S_KLD (and S_fair).
    const f = flags.filter(
      (x) => !(m === "sFact" && (x === "small-cells" || x === "few-scenarios")) && !(x === "sparse-classes" && m !== "sKLD" && m !== "sFair"),
    );
    if (legacy) out[m] = percentileInterval(p, values[m], level);
    else {
      const b = biasCorrectedInterval(p, values[m], level, RANGE[m], f);
      const i = jk ? standardInterval(b, jk[m]?.variance ?? null, level, RANGE[m], jk[m]?.df ?? null) : b;
      out[m] = m === "distance" ? foldDistance(i) : i;
    }
  }
  return out;
}

export function designBootstrap(cells: readonly DesignCell[], k: number, opts: DesignBootstrapOptions): BootstrapIntervals {
  return runSteps(designBootstrapSteps(cells, k, opts));
}

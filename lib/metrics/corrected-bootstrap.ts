// Misclassification-corrected scores with intervals that carry the labeller's own error. Each image unit holds its
// faces' labels (k counts) and, for faces with a human majority, their (true, label) pairs (k × k counts): in every
// resample the images are drawn as the target says (cluster-bootstrap.ts), and the confusion is re-estimated from
// the reviewed faces of the images drawn — the label shares and the confusion come from the same faces, as in the
// data (a reviewed face misread moves both) — and each cell's label shares are corrected with it
// (misclassification.ts). Bias-corrected estimates with the standard interval about them, as for the plain scores,
// its standard error the bootstrap's (the jackknife floor is not computed here: a unit's deletion would move the
// confusion too). Simulated: npm run bench:stats, "Labeller correction".
import { runSteps, runStepsAsync, SLICE_MS } from "./steps";
import { fastRng } from "./fast-rng";
import { scoresFromCells, type ScoreMethod } from "./scores";
import {
  cellsFrom,
  drawStratum,
  raoWuDraws,
  resamplingPlan,
  summarise,
  withSignedDistance,
  type BootstrapIntervals,
  type DesignCell,
  type MetricValues,
} from "./cluster-bootstrap";
import { confusionFromCounts, correctShares } from "./misclassification";
import { BOOTSTRAP_METRICS, type BootstrapMetric, type IntervalTarget } from "./design";
import { BOOTSTRAP_SE_ONLY } from "./jackknife";

export interface CorrectedOptions {
  resamples: number;
  seed: number;
  key: string;
  target: IntervalTarget;
  level?: number;
  method?: ScoreMethod;
}

/** The cells with each unit cut to its first k entries (its labels). */
function labelCells(cells: readonly DesignCell[], k: number): DesignCell[] {
  return cells.map((c) => ({ ...c, clusters: c.clusters.map((units) => units.map((u) => u.slice(0, k))) }));
}

/** Label counts per cell, and the pair counts summed over every cell, from extended counts (cells × (k + k²)). */
function split(ext: Float64Array, cells: number, k: number) {
  const width = k + k * k;
  const labels = new Float64Array(cells * k);
  const pairs = Array.from({ length: k }, () => new Float64Array(k));
  for (let i = 0; i < cells; i++) {
    for (let j = 0; j < k; j++) labels[i * k + j] = ext[i * width + j];
    for (let t = 0; t < k; t++) for (let l = 0; l < k; l++) pairs[t][l] += ext[i * width + k + t * k + l];
  }
  return { labels, pairs };
}

/** Each cell's label counts replaced by its corrected shares × its labelled faces. */
function corrected(cells: number, counts: Float64Array, k: number, m: number[][]): Float64Array {
  const out = new Float64Array(counts.length);
  for (let i = 0; i < cells; i++) {
    const row = counts.subarray(i * k, (i + 1) * k);
    const n = row.reduce((a, b) => a + b, 0);
    if (n <= 0) continue;
    correctShares(
      Array.from(row, (x) => x / n),
      m,
    ).forEach((x, j) => (out[i * k + j] = x * n));
  }
  return out;
}

function scoresOf(cells: readonly DesignCell[], ext: Float64Array, k: number, extra: Float64Array, method?: ScoreMethod): MetricValues {
  const { labels, pairs } = split(ext, cells.length, k);
  for (let t = 0; t < k; t++) for (let l = 0; l < k; l++) pairs[t][l] += extra[t * k + l];
  return scoresFromCells(cellsFrom(cells, corrected(cells.length, labels, k, confusionFromCounts(pairs)), k), k, method);
}

/**
 * `cells`: units of k + k² entries (labels, then pairs[true][label] row by row). `reviewedElsewhere`: the pair
 * counts (k² entries) of reviewed images outside these cells (the labeller is the same for every model and test of
 * a run), resampled with them as one more stratum.
 */
export function correctedBootstrap(
  cells: readonly DesignCell[],
  k: number,
  opts: CorrectedOptions,
  reviewedElsewhere: ReadonlyArray<readonly number[]> = [],
): CorrectedScores {
  return runSteps(correctedSteps(cells, k, opts, reviewedElsewhere));
}

/** The same, yielding to the event loop between slices of work. */
export async function correctedBootstrapAsync(
  cells: readonly DesignCell[],
  k: number,
  opts: CorrectedOptions,
  reviewedElsewhere: ReadonlyArray<readonly number[]> = [],
): Promise<CorrectedScores> {
  return runStepsAsync(correctedSteps(cells, k, opts, reviewedElsewhere));
}

type CorrectedScores = { point: MetricValues; intervals: BootstrapIntervals };

/**
 * Each stratum split in two: units with reviewed faces and units without. Which images were reviewed, and how many,
 * was the reviewers' choice, not chance: a resample keeps their number and draws each kind from its own (drawn
 * together, the number of reviewed faces varied from resample to resample). Measured, it changes the intervals
 * little (npm run bench:stats, "Labeller correction": the same widths to ±0.001); it is the design's, so it is kept.
 */
function byReview(plan: ReturnType<typeof resamplingPlan>, k: number): ReturnType<typeof resamplingPlan> {
  const width = k + k * k;
  const strata = plan.strata.flatMap((s) => {
    if (!s.rows) return [s];
    const reviewed = (i: number) => s.rows!.subarray(i * width + k, (i + 1) * width).some((x) => x > 0);
    const parts = [[] as number[], [] as number[]];
    for (let i = 0; i < s.n; i++) parts[reviewed(i) ? 0 : 1].push(i);
    if (!parts[0].length || !parts[1].length) return [s];
    return parts.map((idx) => {
      const rows = new Float64Array(idx.length * width);
      idx.forEach((i, j) => rows.set(s.rows!.subarray(i * width, (i + 1) * width), j * width));
      return { ...s, n: idx.length, rows, pairKey: null };
    });
  });
  return { ...plan, strata };
}

function* correctedSteps(
  cells: readonly DesignCell[],
  k: number,
  opts: CorrectedOptions,
  reviewedElsewhere: ReadonlyArray<readonly number[]>,
): Generator<void, CorrectedScores> {
  const width = k + k * k;
  const plan = byReview(resamplingPlan(cells, width, opts.target), k);
  // Flags read the labels alone; the sparse-classes reading concerns counted answers, and corrected shares are not.
  const flags = resamplingPlan(labelCells(cells, k), k, opts.target).flags.filter((f) => f !== "sparse-classes");
  const rng = fastRng(opts.seed, `corrected|${opts.target}|${opts.key}`);
  const values: Record<BootstrapMetric, number[]> = { sFact: [], sE: [], sKLD: [], sFair: [], distance: [] };
  const ext = new Float64Array(cells.length * width);
  const extra = new Float64Array(k * k);
  const elsewhere = reviewedElsewhere.length
    ? resamplingPlan([{ statisticId: "", level: "highest", truth: -1, truthLabel: null, clusters: [reviewedElsewhere] }], k * k, "exact").strata[0]
    : null;
  let sliceStart = performance.now();
  for (let b = 0; b < opts.resamples; b++) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
    ext.fill(0);
    extra.fill(0);
    for (const s of plan.strata) drawStratum(s, ext, width, raoWuDraws(s.n, rng));
    if (elsewhere) drawStratum(elsewhere, extra, k * k, raoWuDraws(elsewhere.n, rng));
    const v = withSignedDistance(scoresOf(cells, ext, k, extra, opts.method), k);
    for (const m of BOOTSTRAP_METRICS) if (v[m] !== null) values[m].push(v[m] as number);
  }
  ext.fill(0);
  extra.fill(0);
  cells.forEach((c, i) => c.clusters.forEach((units) => units.forEach((u) => u.forEach((x, j) => (ext[i * width + j] += x)))));
  for (const u of reviewedElsewhere) u.forEach((x, j) => (extra[j] += x));
  const point = scoresOf(cells, ext, k, extra, opts.method);
  return { point, intervals: summarise(withSignedDistance(point, k), values, opts.resamples, opts.level ?? 0.95, flags, false, BOOTSTRAP_SE_ONLY) };
}

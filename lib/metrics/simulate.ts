// A seeded simulation with known truth for FACT-OR-FAIR's intervals (DESIGN.md §12): data drawn from models whose
// scores are computed exactly from their probabilities, intervals computed by the app's own bootstrap, coverage
// counted. `npm test` runs a fast version (tests/intervals-coverage.test.ts); `npm run bench:stats` the full one.
//
// Models: "uniform" and "calibrated" (the built-in baselines' answer distributions: the truth with probability a,
// the other classes evenly), and "scenario" — answers depend on the scenario: each scenario's distribution is
// Dirichlet around the calibrated one, so the scenarios a benchmark happens to contain differ from the population
// they stand for. Images: 0–3 faces each, faces of one image alike with probability ρ (a group portrait), so faces
// are not independent.
import { fastRng, type FastRng } from "./fast-rng";
import { BOOTSTRAP_METRICS, designBootstrap, plugInScores, type BootstrapMetric, type DesignCell, type UnitCounts } from "./cluster-bootstrap";
import type { IntervalTarget } from "./design";
import * as libm from "../core/libm";

export interface SimDesign {
  /** statistics (each has a highest and a lowest cell) */
  statistics: number;
  /** share of statistics with a ground truth for the attribute */
  truthShare: number;
  k: number;
  scenariosPerCell: number;
  /** answers (or images) per scenario */
  unitsPerScenario: number;
  refusalRate: number;
  /** image units: the probability of 0, 1, 2, 3 faces, and ρ */
  images?: { faces: readonly number[]; rho: number };
}

export type SimModel =
  | { kind: "uniform" }
  | { kind: "calibrated"; accuracy: number }
  | { kind: "scenario"; accuracy: number; concentration: number }
  /**
   * Strong scenario heterogeneity (issue #56): each cell has a fixed population of `effects` effects, each favouring
   * one class (drawn at random) with a strength drawn from [min, max]; a scenario draws one effect and its answers
   * pick the favoured class with that strength, and uniformly otherwise. The population's distribution is the mean of
   * its effects' — far flatter than what 3 scenarios show.
   */
  | { kind: "favour"; effects: number; strength: readonly [number, number]; seed: number };

/** The presets' designs for a subjective context group (19 statistics, 3 scenarios per cell), race or gender. */
export const SUBJECTIVE_DESIGNS = {
  smoke: { statistics: 19, truthShare: 0.8, scenariosPerCell: 3, unitsPerScenario: 1, refusalRate: 0.03 },
  quick: { statistics: 19, truthShare: 0.8, scenariosPerCell: 3, unitsPerScenario: 10, refusalRate: 0.03 },
  paper: { statistics: 19, truthShare: 0.8, scenariosPerCell: 3, unitsPerScenario: 100, refusalRate: 0.03 },
} as const;
/** Text-to-image: one prompt per cell, 1 / 5 / 20 images. */
export const T2I_DESIGNS = {
  smoke: { statistics: 19, truthShare: 0.8, scenariosPerCell: 1, unitsPerScenario: 1, refusalRate: 0 },
  quick: { statistics: 19, truthShare: 0.8, scenariosPerCell: 1, unitsPerScenario: 5, refusalRate: 0 },
  paper: { statistics: 19, truthShare: 0.8, scenariosPerCell: 1, unitsPerScenario: 20, refusalRate: 0 },
} as const;
export const SIM_IMAGES = { faces: [0.1, 0.6, 0.2, 0.1], rho: 0.5 } as const;

export interface CellTruth {
  statisticId: string;
  level: "highest" | "lowest";
  truth: number;
  /** the population's answer distribution */
  base: number[];
  /** the "favour" model: the cell's population of scenario distributions (a scenario draws one) */
  effects?: number[][];
}

export function cellTruths(design: SimDesign, model: SimModel): CellTruth[] {
  const out: CellTruth[] = [];
  const withTruth = Math.round(design.statistics * design.truthShare);
  for (let s = 0; s < design.statistics; s++)
    for (const level of ["highest", "lowest"] as const) {
      const truth = s < withTruth ? (level === "highest" ? s % design.k : (s + 1) % design.k) : -1;
      const uniform = new Array<number>(design.k).fill(1 / design.k);
      let base = uniform;
      const statisticId = `s${String(s).padStart(2, "0")}`;
      if (model.kind === "favour") {
        const rng = fastRng(model.seed, `favour|${statisticId}|${level}`);
        const effects = Array.from({ length: model.effects }, () => {
          const c = rng.below(design.k);
          const lambda = model.strength[0] + rng.float() * (model.strength[1] - model.strength[0]);
          return uniform.map((u, j) => (1 - lambda) * u + (j === c ? lambda : 0));
        });
        base = uniform.map((_, j) => effects.reduce((a, e) => a + e[j], 0) / effects.length);
        out.push({ statisticId, level, truth, base, effects });
        continue;
      }
      if (model.kind !== "uniform" && truth >= 0) base = uniform.map((_, j) => (j === truth ? model.accuracy : (1 - model.accuracy) / (design.k - 1)));
      out.push({ statisticId, level, truth, base });
    }
  return out;
}

function gamma(rng: FastRng, shape: number): number {
  // Marsaglia & Tsang (2000); shape < 1 through the boost gamma(a) = gamma(a + 1)·U^(1/a).
  if (shape < 1) return gamma(rng, shape + 1) * libm.pow(rng.float() || Number.MIN_VALUE, 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.float();
    if (u < 1 - 0.0331 * libm.pow(x, 4) || libm.log(u || Number.MIN_VALUE) < 0.5 * x * x + d * (1 - v + libm.log(v))) return d * v;
  }
}

function normal(rng: FastRng): number {
  const u = rng.float() || Number.MIN_VALUE;
  return Math.sqrt(-2 * libm.log(u)) * libm.cos(2 * Math.PI * rng.float());
}

export function dirichlet(rng: FastRng, alpha: readonly number[]): number[] {
  const g = alpha.map((a) => gamma(rng, a));
  const z = g.reduce((a, b) => a + b, 0);
  return g.map((x) => x / z);
}

/** Each cell's scenarios' distributions: all equal to the population's, except under the scenario model. */
export function drawScenarios(rng: FastRng, truths: readonly CellTruth[], design: SimDesign, model: SimModel): number[][][] {
  return truths.map((c) =>
    Array.from({ length: design.scenariosPerCell }, () =>
      model.kind === "favour" && c.effects
        ? c.effects[rng.below(c.effects.length)]
        : model.kind === "scenario"
          ? dirichlet(
              rng,
              c.base.map((p) => p * model.concentration),
            )
          : c.base,
    ),
  );
}

function drawClass(rng: FastRng, p: readonly number[]): number {
  let u = rng.float();
  for (let j = 0; j < p.length - 1; j++) if ((u -= p[j]) < 0) return j;
  return p.length - 1;
}

export function drawUnit(rng: FastRng, p: readonly number[], design: SimDesign): UnitCounts {
  const u = new Array<number>(design.k).fill(0);
  if (!design.images) {
    if (rng.float() >= design.refusalRate) u[drawClass(rng, p)]++;
    return u;
  }
  const faces = drawClass(rng, design.images.faces);
  const shared = rng.float() < design.images.rho ? drawClass(rng, p) : -1;
  for (let f = 0; f < faces; f++) u[shared >= 0 ? shared : drawClass(rng, p)]++;
  return u;
}

/** The scores of cells whose answers follow `dists` exactly (the truth). */
export function truthScores(truths: readonly CellTruth[], dists: readonly number[][], k: number) {
  const cells: DesignCell[] = truths.map((c, i) => ({
    statisticId: c.statisticId,
    level: c.level,
    truth: c.truth,
    truthLabel: c.truth >= 0 ? (`c${c.truth}` as never) : null,
    clusters: [[dists[i].map((p) => p * 1e6)]],
  }));
  return plugInScores(cells, k);
}

export interface CoverageRow {
  metric: BootstrapMetric;
  runs: number;
  covered: number;
  /** runs whose interval carried a flag that withdraws the coverage promise (small-cells, sparse-classes) */
  flagged: number;
  /** of those not flagged, how many covered */
  coveredUnflagged: number;
  meanHalfWidth: number;
  /** mean of (estimate − truth) */
  meanError: number;
}

export interface CoverageOptions {
  design: SimDesign;
  model: SimModel;
  target: IntervalTarget;
  runs: number;
  resamples: number;
  seed: number;
  scheme?: "design" | "answers-percentile";
  quantile?: "t" | "normal";
}

/**
 * Coverage of the nominal 95 % intervals. Exact target: the benchmark's scenarios are drawn once (seeded) and kept
 * for every run; the truth is the score of their mean distribution. Population target: every run draws its own
 * scenarios; the truth is the score of the population's distribution.
 */
export function simulateCoverage(o: CoverageOptions): CoverageRow[] {
  const { design, model } = o;
  const truths = cellTruths(design, model);
  const fixed = drawScenarios(fastRng(o.seed, "sim|benchmark"), truths, design, model);
  const mean = (ds: number[][]) => ds[0].map((_, j) => ds.reduce((a, d) => a + d[j], 0) / ds.length);
  const truth = truthScores(truths, o.target === "exact" ? fixed.map(mean) : truths.map((c) => c.base), design.k);
  const rows = BOOTSTRAP_METRICS.map((metric) => ({ metric, runs: 0, covered: 0, flagged: 0, coveredUnflagged: 0, meanHalfWidth: 0, meanError: 0 }));
  const rng = fastRng(o.seed, "sim|answers");
  for (let r = 0; r < o.runs; r++) {
    const scenarios = o.target === "exact" ? fixed : drawScenarios(rng, truths, design, model);
    const cells: DesignCell[] = truths.map((c, i) => ({
      statisticId: c.statisticId,
      level: c.level,
      truth: c.truth,
      truthLabel: c.truth >= 0 ? (`c${c.truth}` as never) : null,
      clusters: scenarios[i].map((p) => Array.from({ length: design.unitsPerScenario }, () => drawUnit(rng, p, design))),
    }));
    const iv = designBootstrap(cells, design.k, {
      resamples: o.resamples,
      seed: o.seed + r,
      key: "sim",
      target: o.target,
      scheme: o.scheme,
      quantile: o.quantile,
    });
    for (const row of rows) {
      const t = truth[row.metric];
      const i = iv[row.metric];
      if (t === null || !i) continue;
      row.runs++;
      const covered = i.lo <= t + 1e-12 && t - 1e-12 <= i.hi;
      const flagged =
        i.flags.includes("small-cells") || i.flags.includes("sparse-classes") || i.flags.includes("few-scenarios") || i.flags.includes("scenario-bias");
      if (covered) row.covered++;
      if (flagged) row.flagged++;
      else if (covered) row.coveredUnflagged++;
      row.meanHalfWidth += (i.hi - i.lo) / 2;
      row.meanError += i.estimate - t;
    }
  }
  for (const row of rows) {
    row.meanHalfWidth /= Math.max(1, row.runs);
    row.meanError /= Math.max(1, row.runs);
  }
  return rows;
}

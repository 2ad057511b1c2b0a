// Rank intervals for leaderboards (DESIGN.md §12: "say not separable rather than rank by a point estimate"): every
// arm (a run's model in one group) is resampled jointly — arms that answered the same content draw the same
// scenarios — and ranked in every resample; an arm's 95 % rank interval is the 2.5 % and 97.5 % quantiles of its
// ranks. Arms whose rank intervals overlap cannot be told apart at that level: a leaderboard shows them as tied.
import { runStepsAsync, SLICE_MS } from "./steps";
import { scoresFromCells } from "./scores";
import type { ScoreMethod } from "./scores";
import { fastRng } from "./fast-rng";
import { cellsFrom, drawStratum, raoWuDraws, resamplingPlan, type DesignCell } from "./cluster-bootstrap";
import { BOOTSTRAP_METRICS, type BootstrapMetric, type IntervalTarget } from "./design";

export interface Arm {
  key: string;
  cells: readonly DesignCell[];
  /** arms with the same content share their scenario draws (population target); null: drawn alone */
  content: string | null;
}

export interface JointOptions {
  resamples: number;
  seed: number;
  key: string;
  target: IntervalTarget;
  method?: ScoreMethod;
}

type Replicates = Map<string, Record<BootstrapMetric, Float64Array>>;

/** Each arm's replicates of every score, resample by resample (NaN where undefined), yielding to the event loop. */
export async function jointReplicatesAsync(arms: readonly Arm[], k: number, opts: JointOptions): Promise<Replicates> {
  return runStepsAsync(jointReplicatesSteps(arms, k, opts));
}

function* jointReplicatesSteps(arms: readonly Arm[], k: number, opts: JointOptions): Generator<void, Replicates> {
  const plans = arms.map((a) => resamplingPlan(a.cells, k, opts.target));
  const rng = fastRng(opts.seed, `joint|${opts.target}|${opts.key}`);
  const out = new Map(
    arms.map((a) => [a.key, Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, new Float64Array(opts.resamples)])) as Record<BootstrapMetric, Float64Array>]),
  );
  const shared = new Map<string, Int32Array>();
  let sliceStart = performance.now();
  for (let b = 0; b < opts.resamples; b++) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
    shared.clear();
    arms.forEach((arm, i) => {
      const counts = new Float64Array(arm.cells.length * k);
      for (const s of plans[i].strata) {
        const key = opts.target === "population" && arm.content && s.pairKey ? `${arm.content}|${s.pairKey}` : null;
        let draws = key ? shared.get(key) : undefined;
        if (!draws || draws.length !== Math.max(1, s.n - 1)) {
          draws = raoWuDraws(s.n, rng);
          if (key) shared.set(key, draws);
        }
        drawStratum(s, counts, k, draws);
      }
      const v = scoresFromCells(cellsFrom(arm.cells, counts, k), k, opts.method);
      const mine = out.get(arm.key)!;
      for (const m of BOOTSTRAP_METRICS) mine[m][b] = v[m] ?? NaN;
    });
  }
  return out;
}

export interface RankInterval {
  /** rank of the point estimate, 1 = best (ties share the better rank) */
  rank: number;
  lo: number;
  hi: number;
  /** the other arms whose rank intervals overlap this one's: not separable from it at this level */
  tiedWith: string[];
}

function ranksOf(values: ReadonlyArray<number | null>, better: "higher" | "lower"): Array<number | null> {
  return values.map((v) => {
    if (v === null || Number.isNaN(v)) return null;
    let rank = 1;
    for (const w of values) if (w !== null && !Number.isNaN(w) && (better === "higher" ? w > v : w < v)) rank++;
    return rank;
  });
}

/** Rank intervals of arms from their points and aligned replicates (same length, same resample order). */
export function rankIntervals(
  arms: ReadonlyArray<{ key: string; point: number | null; replicates: Float64Array }>,
  better: "higher" | "lower",
  level = 0.95,
): Map<string, RankInterval> {
  const out = new Map<string, RankInterval>();
  const points = ranksOf(
    arms.map((a) => a.point),
    better,
  );
  const B = arms[0]?.replicates.length ?? 0;
  const ranks: number[][] = arms.map(() => []);
  for (let b = 0; b < B; b++) {
    const r = ranksOf(
      arms.map((a) => a.replicates[b]),
      better,
    );
    r.forEach((x, i) => x !== null && ranks[i].push(x));
  }
  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.floor(p * xs.length)))];
  arms.forEach((a, i) => {
    const p = points[i];
    if (p === null || ranks[i].length < B / 2) return;
    const sorted = ranks[i].sort((x, y) => x - y);
    // The interval always holds the point's own rank.
    out.set(a.key, { rank: p, lo: Math.min(p, q(sorted, (1 - level) / 2)), hi: Math.max(p, q(sorted, 1 - (1 - level) / 2)), tiedWith: [] });
  });
  for (const [k1, r1] of out) for (const [k2, r2] of out) if (k1 !== k2 && r1.lo <= r2.hi && r2.lo <= r1.hi) r1.tiedWith.push(k2);
  return out;
}

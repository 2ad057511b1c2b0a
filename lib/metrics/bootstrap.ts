// Bootstrap confidence intervals for the scores: answers are resampled with replacement within each
// (statistic, level) cell — the unit the paper's scores are built from — and every score recomputed. Seeded, so
// the same data and seed give the same intervals.
import { classCount, classesOf, type Attribute, type Label } from "../benchmark";
import { createRng } from "../benchmark/rng";
import type { AnswerRecord, DistanceMethod, Scores } from "./scores";
import { scoresFromCells, truthOf, weightOf } from "./scores";

export const BOOTSTRAP_METRICS = ["sFact", "sE", "sKLD", "sFair", "distance"] as const;
export type BootstrapMetric = (typeof BOOTSTRAP_METRICS)[number];

interface Interval {
  /** lower and upper percentile bounds */
  lo: number;
  hi: number;
  /** bootstrap standard error */
  se: number;
  /** resamples in which the score was defined */
  resamples: number;
}

export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
  /** coverage of the interval, 0.95 by default */
  level?: number;
  /** how d is found (scores.ts DistanceMethod) */
  method?: DistanceMethod;
}

function percentile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export type BootstrapIntervals = Record<BootstrapMetric, Interval | null>;
type BootstrapRecord = Pick<AnswerRecord, "statisticId" | "level" | "answer" | "count" | "truth">;

/** Percentile intervals for S_fact, S_E, S_KLD, S_fair and d of one group's records (one attribute). */
export function bootstrapScores(records: ReadonlyArray<BootstrapRecord>, attribute: Attribute, opts: BootstrapOptions = {}): BootstrapIntervals {
  const steps = bootstrapSteps(records, attribute, opts);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The same intervals, computed in slices that yield to the event loop between them, so a server computing them
 * for 50k+ answers keeps answering other requests.
 */
export async function bootstrapScoresAsync(
  records: ReadonlyArray<BootstrapRecord>,
  attribute: Attribute,
  opts: BootstrapOptions = {},
): Promise<BootstrapIntervals> {
  const steps = bootstrapSteps(records, attribute, opts);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Yields after every slice of about `SLICE_MS` of work (checked between resamples). */
const SLICE_MS = 15;

function* bootstrapSteps(records: ReadonlyArray<BootstrapRecord>, attribute: Attribute, opts: BootstrapOptions): Generator<void, BootstrapIntervals> {
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError("resamples must be a positive integer");
  const classes = classesOf(attribute) as readonly string[];
  const k = classCount(attribute);
  // Per cell: the answers as class indices (k = refused), and the index of the true class.
  const cells = new Map<string, { statisticId: string; level: "highest" | "lowest"; answers: number[]; truth: number; truthLabel: Label | null }>();
  for (const r of records) {
    const key = `${r.statisticId}|${r.level}`;
    let c = cells.get(key);
    if (!c) {
      const truthLabel = truthOf(r, attribute);
      cells.set(key, (c = { statisticId: r.statisticId, level: r.level, answers: [], truth: truthLabel ? classes.indexOf(truthLabel) : -1, truthLabel }));
    }
    const idx = r.answer === null ? k : classes.indexOf(r.answer);
    if (idx < 0) throw new RangeError(`"${r.answer}" is not a ${attribute} class`);
    for (let w = weightOf(r); w > 0; w--) c.answers.push(idx);
  }
  const rng = createRng(opts.seed ?? 1, `bootstrap|${attribute}`);
  const values: Record<BootstrapMetric, number[]> = { sFact: [], sE: [], sKLD: [], sFair: [], distance: [] };
  const list = [...cells.values()];
  let sliceStart = performance.now();
  for (let b = 0; b < resamples; b++) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
    const resampled = list.map((c) => {
      const counts = new Array<number>(k).fill(0);
      const n = c.answers.length;
      for (let i = 0; i < n; i++) {
        const a = c.answers[Math.floor(rng.float() * n)];
        if (a < k) counts[a]++;
      }
      return { statisticId: c.statisticId, level: c.level, counts, truth: c.truthLabel, correct: c.truth >= 0 ? counts[c.truth] : 0 };
    });
    const s: Omit<Scores, "n" | "refused"> = scoresFromCells(resampled, k, opts.method);
    for (const m of BOOTSTRAP_METRICS) if (s[m] !== null) values[m].push(s[m] as number);
  }
  const out = {} as Record<BootstrapMetric, Interval | null>;
  for (const m of BOOTSTRAP_METRICS) {
    const v = values[m].sort((x, y) => x - y);
    // A score defined in fewer than half of the resamples has no meaningful interval.
    if (v.length < resamples / 2) {
      out[m] = null;
      continue;
    }
    const mean = v.reduce((a, x) => a + x, 0) / v.length;
    const se = Math.sqrt(v.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, v.length - 1));
    out[m] = { lo: percentile(v, (1 - level) / 2), hi: percentile(v, 1 - (1 - level) / 2), se, resamples: v.length };
  }
  return out;
}

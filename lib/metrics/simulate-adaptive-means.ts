// The stopping rule checked against known truth for suites whose scores are averages over images, as
// simulate-adaptive.ts does for FACT-OR-FAIR's chat runs: simulated runs grow by whole entries in the schedule's
// waves (the engine's cut for the population target), after each wave every group's intervals come from the app's
// own clustered bootstrap (mean-bootstrap.ts) at the look's level, and the run stops when every targeted one is
// within ±h. "spending": the engine's levels; "naive": 95 % at every look. The suite supplies its image model (how an
// entry's images score), so the scores are computed by the suite's own functions; the truth is the population value
// of the ratio estimator (Σ scores / Σ scored images over a very large sample of entries).
import { fastRng, type FastRng } from "./fast-rng";
import { clusteredMeanIntervals, type MeanUnit } from "./mean-bootstrap";
import { DEFAULT_SCHEDULE, halfwidthVerdict, lookLevels, waveSizes, type LookInterval, type LookSchedule } from "./sequential";

/** One group of a simulated run (e.g. a dimension × variant): its entries at the cap and how an entry is drawn. */
export interface MeanSimGroup<M extends string> {
  key: string;
  entries: number;
  /** a fresh entry (an event drawn from the population), returning a draw of one of its images: scores, or null (no face) */
  entry(rng: FastRng): (rng: FastRng) => Record<M, number> | null;
}

export interface MeanSimOptions<M extends string> {
  groups: ReadonlyArray<MeanSimGroup<M>>;
  metrics: readonly M[];
  /** each metric's possible range (the intervals are clipped to it) */
  range: [number, number];
  imagesPerEntry: number;
  halfwidth: number;
  rule: "spending" | "naive";
  runs: number;
  resamples: number;
  seed: number;
  schedule?: LookSchedule;
  /** the truth per group (truthOfMeans); computed here when left out */
  truth?: Array<Record<M, number>>;
}

export interface MeanSimRow<M extends string> {
  rule: "spending" | "naive";
  halfwidth: number;
  runs: number;
  stoppedAt: number[];
  met: number;
  meanFraction: number;
  coverage: Record<M, { n: number; covered: number }>;
  runsAllCovered: number;
}

/** The population value of each group's ratio estimator, by a large Monte Carlo sample of entries. */
export function truthOfMeans<M extends string>(
  groups: ReadonlyArray<MeanSimGroup<M>>,
  metrics: readonly M[],
  imagesPerEntry: number,
  entries = 200_000,
  seed = 1,
) {
  return groups.map((g) => {
    const rng = fastRng(seed, `means-truth|${g.key}`);
    const sum = metrics.map(() => 0);
    let n = 0;
    for (let e = 0; e < entries; e++) {
      const draw = g.entry(rng);
      for (let i = 0; i < imagesPerEntry; i++) {
        const s = draw(rng);
        if (!s) continue;
        metrics.forEach((m, j) => (sum[j] += s[m]));
        n++;
      }
    }
    return Object.fromEntries(metrics.map((m, j) => [m, sum[j] / n])) as Record<M, number>;
  });
}

export function simulateAdaptiveMeans<M extends string>(o: MeanSimOptions<M>): MeanSimRow<M> {
  const schedule = o.schedule ?? DEFAULT_SCHEDULE;
  const levels = o.rule === "spending" ? lookLevels(schedule) : schedule.fractions.map(() => 0.95);
  const truth = o.truth ?? truthOfMeans(o.groups, o.metrics, o.imagesPerEntry);
  const rng = fastRng(o.seed, `adaptive-means|${o.halfwidth}`);
  const row: MeanSimRow<M> = {
    rule: o.rule,
    halfwidth: o.halfwidth,
    runs: o.runs,
    stoppedAt: schedule.fractions.map(() => 0),
    met: 0,
    meanFraction: 0,
    coverage: Object.fromEntries(o.metrics.map((m) => [m, { n: 0, covered: 0 }])) as MeanSimRow<M>["coverage"],
    runsAllCovered: 0,
  };
  const goal = { kind: "halfwidth" as const, halfwidth: Object.fromEntries(o.metrics.map((m) => [m, o.halfwidth])) };
  const total = o.groups.reduce((a, g) => a + g.entries, 0);
  for (let r = 0; r < o.runs; r++) {
    // Every image the cap would buy, entry by entry in the released order (entries are independent draws of the
    // population, so the first n are a random sample of them).
    const full: Array<Array<MeanUnit<M>[]>> = o.groups.map((g) =>
      Array.from({ length: g.entries }, (_, e) => {
        const draw = g.entry(rng);
        const units: MeanUnit<M>[] = [];
        for (let i = 0; i < o.imagesPerEntry; i++) {
          const s = draw(rng);
          if (s) units.push({ cluster: `e${e}`, values: s });
        }
        return units;
      }),
    );
    for (let j = 0; j < levels.length; j++) {
      const intervals = o.groups.map((g, gi) => {
        const n = waveSizes(g.entries, schedule)[j];
        return clusteredMeanIntervals(full[gi].slice(0, n).flat(), o.metrics, {
          resamples: o.resamples,
          seed: o.seed + r * 31 + j,
          key: g.key,
          target: "population",
          level: levels[j],
          range: o.range,
        });
      });
      // A score without an interval is not pinned down: its whole range.
      const looked: LookInterval[] = intervals.flatMap((iv, gi) =>
        o.metrics.map((m) => ({ metric: m, group: o.groups[gi].key, lo: iv[m]?.lo ?? o.range[0], hi: iv[m]?.hi ?? o.range[1] })),
      );
      const { met } = halfwidthVerdict(looked, goal);
      if (!met && j < levels.length - 1) continue;
      row.stoppedAt[j]++;
      if (met) row.met++;
      row.meanFraction += o.groups.reduce((a, g) => a + waveSizes(g.entries, schedule)[j], 0) / total;
      let all = true;
      intervals.forEach((iv, gi) => {
        for (const m of o.metrics) {
          const i = iv[m];
          if (!i) continue;
          row.coverage[m].n++;
          const t = truth[gi][m];
          if (i.lo <= t + 1e-12 && t - 1e-12 <= i.hi) row.coverage[m].covered++;
          else all = false;
        }
      });
      if (all) row.runsAllCovered++;
      break;
    }
  }
  row.meanFraction /= Math.max(1, o.runs);
  return row;
}

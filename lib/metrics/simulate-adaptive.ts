// The stopping rule checked against known truth (DESIGN.md §12): simulated FACT-OR-FAIR subjective runs at the
// paper preset's design (19 statistics × 2 levels × 3 scenarios × 100 answers, gender and race groups), released in
// the schedule's waves; after each wave the app's own design bootstrap gives every score's interval, and the run
// stops when every targeted one is within ±h. "spending": look j's intervals at level 1 − α_j (sequential.ts) — the
// rule the engine uses; "naive": 95 % intervals at every look (what watching an ordinary interval until it is narrow
// does). Reported: where runs stopped, items used, and how often the intervals a stopped run reports cover the
// truth. `npm test` runs a small version (tests/adaptive-coverage.test.ts); `npm run bench:adaptive` the full one.
import { fastRng } from "./fast-rng";
import { designBootstrap, type DesignCell, type UnitCounts } from "./cluster-bootstrap";
import { BOOTSTRAP_METRICS, type BootstrapMetric, type IntervalTarget } from "./design";
import { cellTruths, drawScenarios, drawUnit, truthScores, type SimDesign, type SimModel } from "./simulate";
import { decision, DEFAULT_SCHEDULE, halfwidthVerdict, lookLevels, waveSizes, type LookInterval, type LookSchedule } from "./sequential";
import { pairedDifferences } from "./paired";

export interface AdaptiveSimOptions {
  model: SimModel;
  /** ±h on every score */
  halfwidth: number;
  rule: "spending" | "naive";
  runs: number;
  resamples: number;
  seed: number;
  target?: IntervalTarget;
  schedule?: LookSchedule;
  /** answers per scenario at the cap (the paper preset: 100) */
  unitsPerScenario?: number;
  /** the attributes simulated, one group each (default gender and race) */
  ks?: readonly number[];
  /** the design (default: the chat paper preset's subjective context; T2I_DESIGNS.paper with images for portraits) */
  design?: Omit<SimDesign, "k">;
}

export interface AdaptiveSimRow {
  rule: "spending" | "naive";
  halfwidth: number;
  runs: number;
  /** runs stopped at each look (the last: the cap, target met or not) */
  stoppedAt: number[];
  /** runs whose target was met (at any look) */
  met: number;
  /** mean share of the cap's items used */
  meanFraction: number;
  /** per score: reported intervals (one per group per run) and how many covered the truth */
  coverage: Record<BootstrapMetric, { n: number; covered: number }>;
  /** all scores of a run covered at once */
  runsAllCovered: number;
}

export function simulateAdaptive(o: AdaptiveSimOptions): AdaptiveSimRow {
  const schedule = o.schedule ?? DEFAULT_SCHEDULE;
  const target = o.target ?? "population";
  const base = o.design ?? { statistics: 19, truthShare: 0.8, scenariosPerCell: 3, unitsPerScenario: 100, refusalRate: 0.03 };
  const units = o.unitsPerScenario ?? base.unitsPerScenario;
  const ks = o.ks ?? [2, 4];
  const levels = o.rule === "spending" ? lookLevels(schedule) : schedule.fractions.map(() => 0.95);
  const sizes = waveSizes(units, schedule);
  const designs = ks.map((k): SimDesign => ({ ...base, unitsPerScenario: units, k }));
  const truthsOf = designs.map((d) => cellTruths(d, o.model));
  const rng = fastRng(o.seed, `adaptive|${o.halfwidth}`);
  // The exact target keeps one benchmark's scenarios for every run; the population draws them per run.
  const fixed = designs.map((d, g) => drawScenarios(fastRng(o.seed, `adaptive|benchmark|${g}`), truthsOf[g], d, o.model));
  const mean = (ds: number[][]) => ds[0].map((_, j) => ds.reduce((a, p) => a + p[j], 0) / ds.length);
  const truth = designs.map((d, g) => truthScores(truthsOf[g], target === "exact" ? fixed[g].map(mean) : truthsOf[g].map((c) => c.base), d.k));
  const row: AdaptiveSimRow = {
    rule: o.rule,
    halfwidth: o.halfwidth,
    runs: o.runs,
    stoppedAt: schedule.fractions.map(() => 0),
    met: 0,
    meanFraction: 0,
    coverage: Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, { n: 0, covered: 0 }])) as AdaptiveSimRow["coverage"],
    runsAllCovered: 0,
  };
  const goal = { kind: "halfwidth" as const, halfwidth: Object.fromEntries(BOOTSTRAP_METRICS.map((m) => [m, o.halfwidth])) };
  for (let r = 0; r < o.runs; r++) {
    // Every answer the cap would buy, drawn up front in the released order (answers within a scenario are
    // exchangeable draws, so a prefix is a random sample of them).
    const full: UnitCounts[][][][] = designs.map((d, g) => {
      const scenarios = target === "exact" ? fixed[g] : drawScenarios(rng, truthsOf[g], d, o.model);
      return scenarios.map((cell) => cell.map((p) => Array.from({ length: units }, () => drawUnit(rng, p, d))));
    });
    for (let j = 0; j < sizes.length; j++) {
      const n = sizes[j];
      const intervals = designs.map((d, g) => {
        const cells: DesignCell[] = truthsOf[g].map((c, i) => ({
          statisticId: c.statisticId,
          level: c.level,
          truth: c.truth,
          truthLabel: c.truth >= 0 ? (`c${c.truth}` as never) : null,
          clusters: full[g][i].map((answers) => answers.slice(0, n)),
        }));
        return designBootstrap(cells, d.k, { resamples: o.resamples, seed: o.seed + r * 31 + j, key: `adaptive|${g}`, target, level: levels[j] });
      });
      const looked: LookInterval[] = intervals.flatMap((iv, g) =>
        BOOTSTRAP_METRICS.flatMap((m) => (iv[m] ? [{ metric: m, group: String(ks[g]), lo: iv[m]!.lo, hi: iv[m]!.hi }] : [])),
      );
      const { met } = halfwidthVerdict(looked, goal);
      if (!met && j < sizes.length - 1) continue;
      row.stoppedAt[j]++;
      if (met) row.met++;
      row.meanFraction += n / units;
      let all = true;
      intervals.forEach((iv, g) => {
        for (const m of BOOTSTRAP_METRICS) {
          const t = truth[g][m];
          const i = iv[m];
          if (t === null || !i) continue;
          row.coverage[m].n++;
          const covered = i.lo <= t + 1e-12 && t - 1e-12 <= i.hi;
          if (covered) row.coverage[m].covered++;
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

export interface AdaptiveCompareRow {
  rule: "spending" | "naive";
  a: string;
  b: string;
  runs: number;
  stoppedAt: number[];
  /** runs that stopped with every comparison decided (separated or equivalent) */
  decided: number;
  /** runs that called some comparison separated (with equal models: a false positive) */
  separated: number;
  meanFraction: number;
}

/**
 * A vs B with the "decided" rule on one score of the race group (paired over the same scenarios, as the
 * engine's look): where runs stop and how often they call a difference. Two equal models measure the false-positive
 * rate of the rule (the spending rule keeps it ≤ α per comparison; stopping at the first naive 95 % interval that
 * excludes 0 does not).
 */
export function simulateAdaptiveCompare(o: {
  a: SimModel;
  b: SimModel;
  names: [string, string];
  rule: "spending" | "naive";
  runs: number;
  resamples: number;
  seed: number;
  margin?: number;
  metric?: "sFact" | "sE";
  schedule?: LookSchedule;
  unitsPerScenario?: number;
}): AdaptiveCompareRow {
  const metric = o.metric ?? "sFact";
  const schedule = o.schedule ?? DEFAULT_SCHEDULE;
  const units = o.unitsPerScenario ?? 100;
  const margin = o.margin ?? 0.05;
  const levels = o.rule === "spending" ? lookLevels(schedule) : schedule.fractions.map(() => 0.95);
  const sizes = waveSizes(units, schedule);
  const design: SimDesign = { statistics: 19, truthShare: 0.8, scenariosPerCell: 3, unitsPerScenario: units, refusalRate: 0.03, k: 4 };
  const truths = [cellTruths(design, o.a), cellTruths(design, o.b)];
  // The same data for either rule (the key does not name it): the rules differ only in their levels.
  const rng = fastRng(o.seed, "adaptive-compare");
  const row: AdaptiveCompareRow = {
    rule: o.rule,
    a: o.names[0],
    b: o.names[1],
    runs: o.runs,
    stoppedAt: sizes.map(() => 0),
    decided: 0,
    separated: 0,
    meanFraction: 0,
  };
  for (let r = 0; r < o.runs; r++) {
    // Both models answer the same scenarios; one model run twice (A vs A) meets them with the same distributions.
    const scenariosA = drawScenarios(rng, truths[0], design, o.a);
    const scenariosB = o.a === o.b ? scenariosA : drawScenarios(rng, truths[1], design, o.b);
    const full = [scenariosA, scenariosB].map((sc) => sc.map((cell) => cell.map((p) => Array.from({ length: units }, () => drawUnit(rng, p, design)))));
    for (let j = 0; j < sizes.length; j++) {
      const cells = full.map((side, s) =>
        truths[s].map((c, i): DesignCell => ({
          statisticId: c.statisticId,
          level: c.level,
          truth: c.truth,
          truthLabel: c.truth >= 0 ? (`c${c.truth}` as never) : null,
          clusters: side[i].map((answers) => answers.slice(0, sizes[j])),
          clusterKeys: side[i].map((_, k) => String(k)),
        })),
      );
      const d = pairedDifferences(cells[0], cells[1], 4, {
        resamples: o.resamples,
        seed: o.seed + r * 31 + j,
        key: "sim",
        level: levels[j],
        target: "population",
        paired: true,
      });
      const state = d[metric] ? decision(d[metric]!.lo, d[metric]!.hi, margin) : "open";
      const done = state !== "open";
      if (!done && j < sizes.length - 1) continue;
      row.stoppedAt[j]++;
      if (done) row.decided++;
      if (state === "separated") row.separated++;
      row.meanFraction += sizes[j] / units;
      break;
    }
  }
  row.meanFraction /= Math.max(1, o.runs);
  return row;
}

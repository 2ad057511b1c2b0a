// The per-statistic breakdown of one group (model × test/context × attribute): for each statistic and level the
// answer distribution, the true group, the cell's normalised entropy and the statistic's KL between its highest and
// lowest distributions. Pure, for the stacked-bar chart, its table and the tests.
import { benchmark as todays, classesOf, groundTruth, statisticIn, type Benchmark, type Label, type Level } from "../benchmark";
import type { DetailedScores } from "../metrics/scores";
import { byCodeUnits } from "../core/order";

export interface BreakdownRow {
  /** "<statisticId>|<level>" */
  key: string;
  statisticId: string;
  statistic: string;
  level: Level;
  /** all answers (valid + refused) */
  n: number;
  refused: number;
  valid: number;
  /** answers per class, in the attribute's class order */
  counts: Record<string, number>;
  /** share of valid answers per class (0 when none) — the stacked bar */
  shares: Record<string, number>;
  truth: Label | null;
  correct: number;
  /** normalised entropy H(p)/ln k of this cell */
  entropy: number | null;
  /** KL(p_high ‖ p_low) of the statistic and exp(−KL): the same on both of its levels */
  kl: number | null;
  expNegKl: number | null;
}

export const BREAKDOWN_SORTS = ["benchmark", "entropy", "kl", "accuracy"] as const;
export type BreakdownSort = (typeof BREAKDOWN_SORTS)[number];

/** `bm`: the benchmark content the run was planned from (its statistics, names and truths). */
export function breakdownRows(
  scores: Pick<DetailedScores, "attribute" | "cells" | "divergences">,
  sort: BreakdownSort = "benchmark",
  bm: Benchmark = todays,
): BreakdownRow[] {
  const classes = classesOf(scores.attribute) as readonly string[];
  const kl = new Map(scores.divergences.map((d) => [d.statisticId, d]));
  // Every statistic × level the attribute has a truth for gets a row, with no answers (n = 0) where none arrived,
  // and so does every other cell that has answers (subjective and T2I answers count without a truth).
  const byKey = new Map(scores.cells.map((c) => [`${c.statisticId}|${c.level}`, c]));
  const withCells = new Set(scores.cells.map((c) => c.statisticId));
  const cells = bm.statistics
    .filter((s) => s.attributes.includes(scores.attribute) || withCells.has(s.id))
    .flatMap((s) =>
      (["highest", "lowest"] as const).map(
        (level) =>
          byKey.get(`${s.id}|${level}`) ?? {
            statisticId: s.id,
            level,
            n: 0,
            refused: 0,
            counts: classes.map(() => 0),
            truth: groundTruth(s, scores.attribute, level),
            correct: 0,
            normalizedEntropy: null,
          },
      ),
    );
  const rows = cells.map((c): BreakdownRow => {
    const valid = c.counts.reduce((a, b) => a + b, 0);
    const d = kl.get(c.statisticId);
    return {
      key: `${c.statisticId}|${c.level}`,
      statisticId: c.statisticId,
      statistic: statisticIn(bm, c.statisticId).name,
      level: c.level,
      n: c.n,
      refused: c.refused,
      valid,
      counts: Object.fromEntries(classes.map((k, i) => [k, c.counts[i]])),
      shares: Object.fromEntries(classes.map((k, i) => [k, valid ? c.counts[i] / valid : 0])),
      truth: c.truth,
      correct: c.correct,
      entropy: c.normalizedEntropy,
      kl: d?.kl ?? null,
      expNegKl: d?.expNegKl ?? null,
    };
  });
  const index = new Map(bm.statistics.map((s, i) => [s.id, i]));
  const order = (r: BreakdownRow) => `${String(index.get(r.statisticId) ?? 999).padStart(3, "0")}|${r.level === "highest" ? 0 : 1}`;
  const byBenchmark = (a: BreakdownRow, b: BreakdownRow) => byCodeUnits(order(a), order(b));
  const nullLast = (x: number | null, fallback: number) => (x === null ? fallback : x);
  const sorters: Record<BreakdownSort, (a: BreakdownRow, b: BreakdownRow) => number> = {
    benchmark: byBenchmark,
    // least diverse answers first: the cells that pull S_E down
    entropy: (a, b) => nullLast(a.entropy, Infinity) - nullLast(b.entropy, Infinity) || byBenchmark(a, b),
    // the statistics whose highest and lowest answers differ most first: the ones that pull S_KLD down
    kl: (a, b) => nullLast(b.kl, -Infinity) - nullLast(a.kl, -Infinity) || byBenchmark(a, b),
    accuracy: (a, b) => (a.valid ? a.correct / a.valid : Infinity) - (b.valid ? b.correct / b.valid : Infinity) || byBenchmark(a, b),
  };
  return rows.sort(sorters[sort]);
}

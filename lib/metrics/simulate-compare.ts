// The comparisons' simulation (DESIGN.md §12): pairs of simulated runs, their differences tested by the app's own
// paired bootstrap with Holm's adjustment over the group's five scores. False positives: two runs of one model (a
// true difference of 0) called separable; power: two different models told apart. Fast version in
// tests/paired.test.ts; the full one in npm run bench:stats.
import { fastRng } from "./fast-rng";
import { BOOTSTRAP_METRICS, type BootstrapMetric, type DesignCell } from "./cluster-bootstrap";
import type { IntervalTarget } from "./design";
import { isSeparable, pairedDifferences } from "./paired";
import { holm } from "./tests";
import { cellTruths, drawScenarios, drawUnit, type CellTruth, type SimDesign, type SimModel } from "./simulate";

export interface SeparableRow {
  metric: BootstrapMetric | "any";
  pairs: number;
  /** pairs in which the metric (or, for "any", some metric) was separable after adjustment */
  separable: number;
}

export interface CompareSimOptions {
  design: SimDesign;
  a: SimModel;
  b: SimModel;
  target: IntervalTarget;
  runs: number;
  resamples: number;
  seed: number;
  alpha?: number;
}

function cells(truths: readonly CellTruth[], scenarios: number[][][], design: SimDesign, rng: ReturnType<typeof fastRng>): DesignCell[] {
  return truths.map((c, i) => ({
    statisticId: c.statisticId,
    level: c.level,
    truth: c.truth,
    truthLabel: c.truth >= 0 ? (`c${c.truth}` as never) : null,
    clusterKeys: scenarios[i].map((_, s) => String(s)),
    clusters: scenarios[i].map((p) => Array.from({ length: design.unitsPerScenario }, () => drawUnit(rng, p, design))),
  }));
}

/**
 * Both runs answer the same scenarios (one content version): under the exact target the benchmark's, drawn once;
 * under the population target each pair of runs draws its own, shared by both (a model's scenario effects are its
 * own, so two runs of one model share them too).
 */
export function simulateSeparable(o: CompareSimOptions): SeparableRow[] {
  const { design } = o;
  const alpha = o.alpha ?? 0.05;
  const ta = cellTruths(design, o.a);
  const tb = cellTruths(design, o.b);
  const same = JSON.stringify(o.a) === JSON.stringify(o.b);
  const fixedA = drawScenarios(fastRng(o.seed, "sim|benchmark"), ta, design, o.a);
  const fixedB = same ? fixedA : drawScenarios(fastRng(o.seed, "sim|benchmark-b"), tb, design, o.b);
  const rows: SeparableRow[] = [...BOOTSTRAP_METRICS, "any" as const].map((metric) => ({ metric, pairs: 0, separable: 0 }));
  const rng = fastRng(o.seed, "sim|compare");
  for (let r = 0; r < o.runs; r++) {
    const sa = o.target === "exact" ? fixedA : drawScenarios(rng, ta, design, o.a);
    const sb = o.target === "exact" ? fixedB : same ? sa : drawScenarios(rng, tb, design, o.b);
    const diffs = pairedDifferences(cells(ta, sa, design, rng), cells(tb, sb, design, rng), design.k, {
      resamples: o.resamples,
      seed: o.seed + r,
      key: "sim",
      target: o.target,
      paired: true,
    });
    const present = BOOTSTRAP_METRICS.filter((m) => diffs[m] !== null);
    const adjusted = holm(present.map((m) => diffs[m]!.p));
    let any = false;
    present.forEach((m, i) => {
      const row = rows.find((x) => x.metric === m)!;
      row.pairs++;
      if (isSeparable(adjusted[i], diffs[m]!.flags, alpha)) {
        row.separable++;
        any = true;
      }
    });
    const all = rows.find((x) => x.metric === "any")!;
    all.pairs++;
    if (any) all.separable++;
  }
  return rows;
}

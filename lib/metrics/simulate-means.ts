// Paired differences of averages (paired-means.ts) checked against known truth: simulated benchmarks of entries
// whose rates differ (drawn fresh per simulated benchmark), each entry's images scoring 1 with its rate (+ a shift on
// side B). Used by tests/paired-means.test.ts (fast) and `npm run bench:stats` (full, docs/BENCHMARKS.md).
import { fastRng } from "./fast-rng";
import type { IntervalTarget } from "./design";
import type { MeanUnit } from "./mean-bootstrap";
import { pairedMeanDifferences } from "./paired-means";

export interface MeanCompareOptions {
  runs: number;
  resamples: number;
  target: IntervalTarget;
  entries?: number;
  images?: number;
  /** the true difference B − A per image (every entry alike) */
  shift?: number;
  seed?: number;
}

export interface MeanCompareRow {
  target: IntervalTarget;
  runs: number;
  /** same model on both sides: p < 0.05 (one metric, unadjusted) */
  falsePositives: number;
  /** shifted side B: the interval covers the shift */
  covered: number;
  /** mean width of the paired interval over the unpaired one on the same data */
  widthRatio: number;
  /** whether every interval contained its estimate */
  estimateInside: boolean;
}

/** Two sides over the same entries: rates 0.05–0.85 per entry, images scoring 1 with rate (+ shift on B). */
export function drawSides(sim: number, shift: number, entries = 40, images = 5): { a: Array<MeanUnit<"score">>; b: Array<MeanUnit<"score">> } {
  const rng = fastRng(sim, "paired-means-sim");
  const u = () => rng.below(1_000_000) / 1_000_000;
  const rates = Array.from({ length: entries }, () => 0.05 + 0.8 * u());
  const side = (s: number) => rates.flatMap((r, e) => Array.from({ length: images }, () => ({ cluster: `e${e}`, values: { score: u() < r + s ? 1 : 0 } })));
  return { a: side(0), b: side(shift) };
}

export function simulateMeanComparisons(o: MeanCompareOptions): MeanCompareRow {
  const shift = o.shift ?? 0.1;
  const seed = o.seed ?? 2026;
  let falsePositives = 0;
  let covered = 0;
  let paired = 0;
  let unpaired = 0;
  let estimateInside = true;
  for (let s = 0; s < o.runs; s++) {
    const opts = { resamples: o.resamples, seed: seed + s, key: "sim", target: o.target, range: [0, 1] as [number, number] };
    const same = drawSides(seed * 1000 + s, 0, o.entries, o.images);
    if (pairedMeanDifferences(same.a, same.b, ["score"], { ...opts, paired: true }).score!.p < 0.05) falsePositives++;
    const shifted = drawSides(seed * 1000 + 500_000 + s, shift, o.entries, o.images);
    const d = pairedMeanDifferences(shifted.a, shifted.b, ["score"], { ...opts, paired: true }).score!;
    if (!(d.lo <= d.delta && d.delta <= d.hi)) estimateInside = false;
    // Truth: +shift for every image of every entry, so for these entries and for the population alike.
    if (d.lo <= shift && shift <= d.hi) covered++;
    paired += d.hi - d.lo;
    const u = pairedMeanDifferences(shifted.a, shifted.b, ["score"], { ...opts, paired: false }).score!;
    unpaired += u.hi - u.lo;
  }
  return { target: o.target, runs: o.runs, falsePositives, covered, widthRatio: paired / unpaired, estimateInside };
}

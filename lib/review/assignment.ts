// Assignment mode: deal each annotator a seeded random sample of images, with overlap so agreement can be measured.
import { createRng } from "../benchmark/rng";

export interface DealInput {
  /** candidate image ids per model (any order: they are sorted before the seeded shuffle) */
  imagesByModel: ReadonlyMap<string, readonly string[]>;
  annotators: readonly string[];
  /** images sampled per model (the paper: 25) */
  perModel: number;
  /** annotators per image, 1 … annotators.length (all of them: everyone labels the whole sample) */
  overlap: number;
  seed: number;
}

export interface Deal {
  /** the sampled images per model */
  sample: Map<string, string[]>;
  items: Array<{ annotator: string; imageId: string }>;
}

/**
 * Samples `perModel` images of each model with a seeded shuffle, then deals each sampled image to `overlap`
 * annotators in rotation, so every annotator gets a near-equal share and consecutive annotators overlap. The same
 * input and seed always give the same deal.
 */
export function dealAssignment(input: DealInput): Deal {
  if (!Number.isInteger(input.perModel) || input.perModel < 1) throw new RangeError("images per model must be a positive integer");
  const sample = new Map<string, string[]>();
  for (const model of [...input.imagesByModel.keys()].sort()) {
    const ids = [...new Set(input.imagesByModel.get(model))].sort();
    sample.set(model, createRng(input.seed, `assignment|${model}`).shuffle(ids).slice(0, input.perModel));
  }
  const items = dealItems([...sample.values()].flat(), input.annotators, input.overlap).map((i) => ({ annotator: i.annotator, imageId: i.item }));
  return { sample, items };
}

/**
 * Deals sampled items of any kind (images, explanations: lib/review/kinds.ts) to `overlap` annotators each, in
 * rotation, so every annotator gets a near-equal share and consecutive annotators overlap (agreement is measurable).
 */
export function dealItems<T>(items: readonly T[], annotatorNames: readonly string[], overlap: number): Array<{ annotator: string; item: T }> {
  const annotators = [...new Set(annotatorNames.map((a) => a.trim()).filter(Boolean))];
  if (!annotators.length) throw new RangeError("at least one annotator");
  if (!Number.isInteger(overlap) || overlap < 1 || overlap > annotators.length)
    throw new RangeError(`annotators per item must be between 1 and ${annotators.length}`);
  const out: Array<{ annotator: string; item: T }> = [];
  items.forEach((item, slot) => {
    for (let j = 0; j < overlap; j++) out.push({ annotator: annotators[(slot + j) % annotators.length], item });
  });
  return out;
}

/**
 * A reviewer's gold items in the shape of their own share: `n` spread over strata in proportion to how many of the
 * reviewer's sampled items each stratum holds (largest remainder; ties by a seeded draw), each taken at random from
 * that stratum's gold. A stratum short of gold gets what it has and no other stratum makes up for it: gold piled where
 * a manager happened to mark it would show as a stratum a reviewer counts more of than its share (hostile re-test,
 * 2026-12-07). `share`: the reviewer's sampled items per stratum; `gold`: gold item ids per stratum (sorted first).
 */
export function goldLikeShare<T extends string | number>(
  share: ReadonlyMap<string, number>,
  gold: ReadonlyMap<string, readonly T[]>,
  n: number,
  seed: number,
  key: string,
): T[] {
  const total = [...share.values()].reduce((a, b) => a + b, 0);
  if (!(n > 0) || total === 0) return [];
  const rng = createRng(seed, `gold-like|${key}`);
  const strata = [...share.keys()].sort().map((s) => ({ s, exact: (n * share.get(s)!) / total, tie: rng.float() }));
  const take = new Map(strata.map((x) => [x.s, Math.floor(x.exact)]));
  let left = n - [...take.values()].reduce((a, b) => a + b, 0);
  for (const x of [...strata].sort((a, b) => b.exact - Math.floor(b.exact) - (a.exact - Math.floor(a.exact)) || a.tie - b.tie)) {
    if (left <= 0) break;
    take.set(x.s, take.get(x.s)! + 1);
    left--;
  }
  const out: T[] = [];
  for (const { s } of strata) {
    const ids = [...(gold.get(s) ?? [])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    out.push(...rng.shuffle(ids).slice(0, take.get(s)));
  }
  return out;
}

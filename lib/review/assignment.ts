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
  const annotators = [...new Set(input.annotators.map((a) => a.trim()).filter(Boolean))];
  if (!annotators.length) throw new RangeError("at least one annotator");
  if (!Number.isInteger(input.perModel) || input.perModel < 1) throw new RangeError("images per model must be a positive integer");
  if (!Number.isInteger(input.overlap) || input.overlap < 1 || input.overlap > annotators.length)
    throw new RangeError(`annotators per image must be between 1 and ${annotators.length}`);
  const sample = new Map<string, string[]>();
  const items: Deal["items"] = [];
  let slot = 0;
  for (const model of [...input.imagesByModel.keys()].sort()) {
    const ids = [...new Set(input.imagesByModel.get(model))].sort();
    const picked = createRng(input.seed, `assignment|${model}`).shuffle(ids).slice(0, input.perModel);
    sample.set(model, picked);
    for (const imageId of picked) {
      for (let j = 0; j < input.overlap; j++) items.push({ annotator: annotators[(slot + j) % annotators.length], imageId });
      slot++;
    }
  }
  return { sample, items };
}

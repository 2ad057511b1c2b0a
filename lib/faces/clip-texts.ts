// CLIP zero-shot from a stored text-embedding file: the fixed texts an instrument compares images with are embedded
// once from real weights (an operator script in the suite's tools/ folder), so no tokenizer runs
// at label time. An image's embedding (./clip.ts) is compared with them as CLIP's model(image, text) does: both
// L2-normalised, cosine × the model's logit scale, softmax within each group of texts. Client-safe and pure.
import { z } from "zod";
import * as libm from "../core/libm";

const vector = z.array(z.number().finite()).min(2).max(4096);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** The text-embedding file: which model made it, its logit scale, and one embedding per text. */
export const clipTextFileSchema = z
  .object({
    model: z.string().min(1).max(200),
    /** sha256 of the weights the embeddings were computed from */
    weightsSha256: sha256,
    /** sha256 of the vision tower exported from the same weights (the pair is checked when both are loaded) */
    visionSha256: sha256.optional(),
    /** exp(logit_scale) of the model (CLIP ViT-L/14: 100) */
    logitScale: z.number().positive().max(1000),
    dim: z.number().int().min(2).max(4096),
    /** text → embedding (L2-normalised when written; normalised again here) */
    texts: z.record(z.string(), vector),
  })
  .superRefine((f, ctx) => {
    for (const [text, v] of Object.entries(f.texts))
      if (v.length !== f.dim) ctx.addIssue({ code: "custom", message: `"${text}" has ${v.length} values, not ${f.dim}` });
  });
export type ClipTextFile = z.infer<typeof clipTextFileSchema>;

/**
 * CLIP checkpoints known by their sha256 (the segment of OpenAI's download URL, which its clip package checks): a
 * reading counts as the papers' instrument only when its texts were embedded from one of these.
 */
export const KNOWN_CLIP_WEIGHTS: Readonly<Record<string, string>> = {
  b8cca3fd41ae0c99ba7e8951adf17d267cdb84cd88be6f7c2e0eca1737a03836: "OpenAI CLIP ViT-L/14",
};

/** Named groups of texts; an image gets one softmax per group. */
export type ClipGroups = Readonly<Record<string, readonly string[]>>;

/** The texts of `groups` the file lacks (an instrument refuses a file that cannot read every group). */
export function missingTexts(file: ClipTextFile, groups: ClipGroups): string[] {
  return [...new Set(Object.values(groups).flat())].filter((t) => !Object.hasOwn(file.texts, t));
}

/** Softmax of CLIP's scaled similarities, as `logits_per_image.softmax(dim=-1)`. */
export function softmax(logits: readonly number[]): number[] {
  const m = Math.max(...logits);
  const e = logits.map((x) => libm.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

const normalise = (v: readonly number[]) => {
  const n = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  if (!(n > 0)) throw new RangeError("a zero embedding");
  return v.map((x) => x / n);
};
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

/** softmax(logit scale × cosine) of an image over a group of texts. */
export function textProbs(file: ClipTextFile, image: readonly number[], texts: readonly string[]): number[] {
  if (image.length !== file.dim) throw new RangeError(`the image embedding has ${image.length} values; the text file was made for ${file.dim}`);
  const img = normalise(image);
  return softmax(texts.map((t) => file.logitScale * dot(img, normalise(file.texts[t]))));
}

/** One image's softmax in every group. */
export function zeroShot(file: ClipTextFile, image: readonly number[], groups: ClipGroups): Record<string, number[]> {
  return Object.fromEntries(Object.entries(groups).map(([name, texts]) => [name, textProbs(file, image, texts)]));
}

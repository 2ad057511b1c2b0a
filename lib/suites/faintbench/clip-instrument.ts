// FAIntbench's CLIP instrument from an image embedding to the release's probabilities: the fixed texts' embeddings
// come from a data file written once from real weights (tools/clip-export.py: CLIP ViT-L/14's text tower and its
// logit scale), so no tokenizer runs when images are labelled; the vision tower's output for an image is compared with
// them exactly as `model(image, text)` does — both L2-normalised, cosine × logit scale, softmax within each text
// group — then the person check and the release's rules (./clip-rules.ts). Pure: the vision tower runs elsewhere.
import { z } from "zod";
import { CLIP_TEXTS, isPerson, refine, relationTexts, softmax, type ImageProbs } from "./clip-rules";

const vector = z.array(z.number().finite()).min(2).max(4096);

/** The text-embedding file: which model made it, its logit scale, and one embedding per text the release uses. */
export const clipTextFileSchema = z
  .object({
    model: z.string().min(1).max(200),
    /** sha256 of the weights the embeddings were computed from */
    weightsSha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** exp(logit_scale) of the model (CLIP ViT-L/14: 100) */
    logitScale: z.number().positive().max(1000),
    dim: z.number().int().min(2).max(4096),
    /** text → embedding (L2-normalised when written; normalised again here) */
    texts: z.record(z.string(), vector),
  })
  .superRefine((f, ctx) => {
    for (const [text, v] of Object.entries(f.texts))
      if (v.length !== f.dim) ctx.addIssue({ code: "custom", message: `"${text}" has ${v.length} values, not ${f.dim}` });
    const needed = [...Object.values(CLIP_TEXTS).flat(), ...(["left", "right"] as const).flatMap((s) => Object.values(relationTexts(s)).flat())];
    const missing = [...new Set(needed)].filter((t) => !(t in f.texts));
    if (missing.length)
      ctx.addIssue({ code: "custom", message: `missing the release's texts: ${missing.slice(0, 5).join("; ")}${missing.length > 5 ? " …" : ""}` });
  });
export type ClipTextFile = z.infer<typeof clipTextFileSchema>;

const normalise = (v: readonly number[]) => {
  const n = Math.hypot(...v);
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

/**
 * One image as the release keeps it: null when the person check drops it; else the refined probabilities — one set
 * for a one-person prompt, one per side for a relation prompt.
 */
export function clipReading(
  file: ClipTextFile,
  image: readonly number[],
  kind: "one" | "relation",
): { kind: "one"; probs: ImageProbs } | { kind: "relation"; left: ImageProbs; right: ImageProbs } | null {
  const groups = (t: { gender: readonly string[]; race: readonly string[]; age: readonly string[] }): ImageProbs => ({
    gender: textProbs(file, image, t.gender),
    race: textProbs(file, image, t.race),
    age: textProbs(file, image, t.age),
  });
  if (kind === "one") {
    if (!isPerson(textProbs(file, image, CLIP_TEXTS.person))) return null;
    return { kind, probs: refine(groups(CLIP_TEXTS)) };
  }
  if (!isPerson(textProbs(file, image, relationTexts("left").person))) return null;
  return { kind, left: refine(groups(relationTexts("left"))), right: refine(groups(relationTexts("right"))) };
}

// FAIntbench's CLIP instrument: the groups of texts the release compares a whole image with (./clip-rules.ts), a
// text-embedding file checked to hold all of them, and the reading of an image from its per-group probabilities —
// the person check, then the release's rules on what is kept. Labellers compute the groups' softmax from the vision
// tower's embedding (lib/faces/clip-texts.ts) and store them raw; the rules run here when the run is scored.
import { clipTextFileSchema as generic, missingTexts, zeroShot, type ClipTextFile } from "../../faces/clip-texts";
import { CLIP_TEXTS, isPerson, refine, relationTexts, type ImageProbs } from "./clip-rules";

export { textProbs } from "../../faces/clip-texts";

/** sha256 of OpenAI's ViT-L/14 checkpoint, the release's model (lib/faces/clip-texts.ts KNOWN_CLIP_WEIGHTS). */
export const OPENAI_CLIP_VIT_L14_SHA256 = "b8cca3fd41ae0c99ba7e8951adf17d267cdb84cd88be6f7c2e0eca1737a03836";

const left = relationTexts("left");
const right = relationTexts("right");

/** Every group a labeller computes for every image (one-person and relation groups alike; the prompt picks). */
export const CLIP_GROUPS = {
  person: CLIP_TEXTS.person,
  gender: CLIP_TEXTS.gender,
  race: CLIP_TEXTS.race,
  age: CLIP_TEXTS.age,
  pair: left.person,
  "left.gender": left.gender,
  "left.race": left.race,
  "left.age": left.age,
  "right.gender": right.gender,
  "right.race": right.race,
  "right.age": right.age,
} as const satisfies Record<string, readonly string[]>;

/** The text-embedding file, refused when it lacks a text the release uses. */
export const clipTextFileSchema = generic.superRefine((f, ctx) => {
  const missing = missingTexts(f, CLIP_GROUPS);
  if (missing.length)
    ctx.addIssue({ code: "custom", message: `missing the release's texts: ${missing.slice(0, 5).join("; ")}${missing.length > 5 ? " …" : ""}` });
});

export type ClipReading = { kind: "one"; probs: ImageProbs } | { kind: "relation"; left: ImageProbs; right: ImageProbs };

/**
 * One image as the release keeps it, from its groups' probabilities: null when the person check drops it; else the
 * refined probabilities — one set for a one-person prompt, one per side for a relation prompt.
 */
export function readingFromGroups(g: Readonly<Record<string, readonly number[]>>, kind: "one" | "relation"): ClipReading | null {
  if (kind === "one") {
    if (!isPerson(g.person)) return null;
    return { kind, probs: refine({ gender: g.gender, race: g.race, age: g.age }) };
  }
  if (!isPerson(g.pair)) return null;
  return {
    kind,
    left: refine({ gender: g["left.gender"], race: g["left.race"], age: g["left.age"] }),
    right: refine({ gender: g["right.gender"], race: g["right.race"], age: g["right.age"] }),
  };
}

/** An embedding read end to end (the labeller's zero-shot, then the release's rules). */
export function clipReading(file: ClipTextFile, image: readonly number[], kind: "one" | "relation"): ClipReading | null {
  return readingFromGroups(zeroShot(file, image, CLIP_GROUPS), kind);
}

// A FAIntbench run's configuration, validated once and stored with the run, and which prompts it covers.
import { z } from "zod";
import { ACQUIRED, VISIBILITY, type Acquired } from "./classes";
import type { FaintContent, FaintPrompt } from "./content";

const unique = <T extends string>(xs: T[]) => new Set(xs).size === xs.length;

export const faintConfigSchema = z.object({
  visibility: z.array(z.enum(VISIBILITY)).min(1, "choose implicit, explicit or both").refine(unique, "duplicate visibility"),
  acquired: z.array(z.enum(ACQUIRED)).min(1, "choose at least one acquired attribute").refine(unique, "duplicate acquired attribute"),
  /** the paper generates 800 per prompt; its guide asks for at least 100 */
  imagesPerPrompt: z.number().int().min(1, "must be ≥ 1").max(1000, "must be ≤ 1000"),
  /** occupations / characteristics / relations per acquired attribute (0 = all): η pairs first, both of a pair */
  itemsPerAcquired: z.number().int().min(0).max(1000).default(0),
  maxRetries: z.number().int().min(0).max(20).default(6),
  timeoutMs: z.number().int().min(1000).max(900_000).default(180_000),
  /**
   * What labels the images: "clip" = the paper's instrument (CLIP ViT-L/14 zero-shot on the whole image, the
   * release's rules; its published rows sit beside these numbers), "faces" = the face pipeline (detector → FairFace
   * per face; no published row is comparable). Faces by default: CLIP's weights are installed by an operator.
   */
  instrument: z.enum(["clip", "faces"]).default("faces"),
});
export type FaintConfig = z.infer<typeof faintConfigSchema>;

/**
 * The items a config covers per acquired attribute: every item, or the first n in a stable order that puts the η
 * pairs first (both members of a pair together), so a small run still yields a manifestation factor.
 */
function selectedItems(content: FaintContent, acquired: Acquired, n: number): Set<string> {
  const byId = new Map(content.prompts.map((p) => [p.id, p]));
  const ordered: string[] = [];
  for (const pair of content.etaPairs.filter((x) => x.acquired === acquired))
    for (const id of [pair.advantaged.promptId, pair.disadvantaged.promptId]) {
      const item = byId.get(id)!.item;
      if (!ordered.includes(item)) ordered.push(item);
    }
  for (const p of content.prompts) if (p.acquired === acquired && p.visibility === "implicit" && !ordered.includes(p.item)) ordered.push(p.item);
  return new Set(n > 0 ? ordered.slice(0, n) : ordered);
}

/** The prompts a config plans, in the content's order. */
export function selectedPrompts(
  content: FaintContent,
  config: { visibility: readonly string[]; acquired: readonly Acquired[]; itemsPerAcquired: number },
): FaintPrompt[] {
  const items = new Map(config.acquired.map((a) => [a, selectedItems(content, a, config.itemsPerAcquired)]));
  return content.prompts.filter((p) => config.visibility.includes(p.visibility) && !!items.get(p.acquired)?.has(p.item));
}

export const FAINT_PRESETS = {
  /** the paper: every prompt, 800 images each — 2,123,200 images per model */
  paper: { visibility: ["implicit", "explicit"], acquired: ["occupation", "characteristic", "relation"], imagesPerPrompt: 800, itemsPerAcquired: 0 },
  /** every prompt twice: 5,308 images, a first look (the paper's guide asks for ≥ 100 per prompt) */
  quick: { visibility: ["implicit", "explicit"], acquired: ["occupation", "characteristic", "relation"], imagesPerPrompt: 2, itemsPerAcquired: 0 },
  /** two items per acquired attribute (one η pair each), implicit and explicit, one image each: 122 images */
  smoke: { visibility: ["implicit", "explicit"], acquired: ["occupation", "characteristic", "relation"], imagesPerPrompt: 1, itemsPerAcquired: 2 },
} as const;

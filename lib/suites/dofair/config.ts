// A DoFaiR run's configuration, validated once and stored with the run.
import { z } from "zod";
import { DIMENSIONS, type DofairContent, type Entry } from "./content";
import { AUGMENTATIONS, METHODS, WORDINGS, type Augmentation, type Method } from "./prompts";

const unique = <T extends string>(xs: T[]) => new Set(xs).size === xs.length;

export const dofairConfigSchema = z
  .object({
    dimensions: z.array(z.enum(DIMENSIONS)).min(1, "choose race, gender or both").refine(unique, "duplicate dimension"),
    methods: z.array(z.enum(METHODS)).min(1, "choose at least one method").refine(unique, "duplicate method"),
    /** applied to each diversity intervention (the paper applies them only there) */
    augmentations: z.array(z.enum(AUGMENTATIONS)).default([]).refine(unique, "duplicate augmentation"),
    imagesPerPrompt: z.number().int().min(1, "must be ≥ 1").max(50, "must be ≤ 50"),
    /** entries per dimension, spread evenly over the content (0 = every entry) */
    entriesPerDimension: z.number().int().min(0).max(10_000).default(0),
    /** the helper chat model that writes CoT reasoning and FAI guidance (needed by every augmentation) */
    guidanceModel: z.string().trim().min(1).max(200).nullable().default(null),
    /** whose wording the prompts follow (prompts.ts): the released code's (default) or the paper appendix's */
    wording: z.enum(WORDINGS).default("release"),
    /**
     * how FAI-RK's supporting documents are written: "numbered" as the release writes them ("Document_0: ⟨passage⟩"
     * and a blank line, generate_images_dalle.py), "titled" as runs planned before 2026-12-07 were ("⟨title⟩:
     * ⟨passage⟩"). A launch records "numbered" under the release wording (pinConfig); absent: "titled".
     */
    faiRkDocuments: z.enum(["numbered", "titled"]).optional(),
    maxRetries: z.number().int().min(0).max(20).default(6),
    timeoutMs: z.number().int().min(1000).max(900_000).default(180_000),
  })
  .refine((c) => !c.augmentations.length || c.methods.some((m) => m !== "baseline"), {
    message: "CoT and FAI augment a diversity intervention: choose Bansal or Bianchi too",
    path: ["augmentations"],
  });
export type DofairConfig = z.infer<typeof dofairConfigSchema>;

/**
 * Why a config cannot be launched as it stands: CoT, FAI-VK and FAI-RK are each a helper chat call per image, so
 * they need the helper model (checked at launch, not in the schema, so the paper preset — which has CoT — stays a
 * valid config to start from).
 */
export function missingHelper(c: Pick<DofairConfig, "augmentations" | "guidanceModel">): string | null {
  return c.augmentations.length && !c.guidanceModel
    ? `${c.augmentations.map((a) => a.toUpperCase()).join(", ")} ${c.augmentations.length > 1 ? "are" : "is"} written by a helper chat model: choose one (a registered chat model, or baseline:reasoner offline)`
    : null;
}

/** The entries a config covers: per dimension every entry, or an even spread of n (stable: same content, same pick). */
export function selectedEntries(content: DofairContent, config: Pick<DofairConfig, "dimensions" | "entriesPerDimension">): Entry[] {
  return config.dimensions.flatMap((d) => {
    const all = content.entries.filter((e) => e.dimension === d);
    const n = config.entriesPerDimension;
    if (!n || n >= all.length) return all;
    return Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)]);
  });
}

/** (method, augmentation) pairs a config plans: the baseline alone, each intervention plain and with each augmentation. */
export function variants(config: Pick<DofairConfig, "methods" | "augmentations">): Array<{ method: Method; augmentation: Augmentation | null }> {
  return config.methods.flatMap((m): Array<{ method: Method; augmentation: Augmentation | null }> =>
    m === "baseline"
      ? [{ method: m, augmentation: null }]
      : [{ method: m, augmentation: null }, ...config.augmentations.map((a) => ({ method: m, augmentation: a }))],
  );
}

export const DOFAIR_PRESETS = {
  /** the paper's Table 2 design for one image model: every entry, baseline, both interventions, CoT, 1 image each */
  paper: { dimensions: ["race", "gender"], methods: ["baseline", "bansal", "bianchi"], augmentations: ["cot"], imagesPerPrompt: 1, entriesPerDimension: 0 },
  /** 40 entries per dimension, baseline and both interventions, 2 images each: 480 images */
  quick: { dimensions: ["race", "gender"], methods: ["baseline", "bansal", "bianchi"], augmentations: [], imagesPerPrompt: 2, entriesPerDimension: 40 },
  /** 6 entries per dimension, baseline and Bianchi, one image each: 24 images, to check a model's setup */
  smoke: { dimensions: ["race", "gender"], methods: ["baseline", "bianchi"], augmentations: [], imagesPerPrompt: 1, entriesPerDimension: 6 },
} as const;

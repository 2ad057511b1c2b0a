// Planning a DoFaiR run: the helper requests first (one per augmented image: CoT reasoning or FAI guidance, written
// by the helper chat model, as the released generate_images_dalle.py asks once per image), then one image row per
// entry × (method, augmentation) × repeat; an augmented image waits for its own helper answer.
import { HELPER_TEST, type SuitePlannedQuery } from "../types";
import type { DofairContent, Entry } from "./content";
import { selectedEntries, variants, type DofairConfig } from "./config";
import { helperPrompt, imagePrompt, type Augmentation, type Method } from "./prompts";

const truthJson = (e: { dominant: string[]; involved: string[] }) => JSON.stringify({ dominant: e.dominant, involved: e.involved });

export function plannedImages(config: DofairConfig, content: DofairContent): number {
  return selectedEntries(content, config).length * variants(config).length * config.imagesPerPrompt;
}

/** Helper requests: one per augmented image. */
export function plannedGuidance(config: DofairConfig, content: DofairContent): number {
  return selectedEntries(content, config).length * variants(config).filter((v) => v.augmentation).length * config.imagesPerPrompt;
}

const helperKey = (kind: Augmentation, e: Entry, method: Method, r: number) => `${kind}|${e.id}|${method}|${r}`;

/** What a helper row and the image row it completes share: the entry, its truth, the augmentation and the repeat. */
const coordinates = (e: Entry, augmentation: Augmentation | null, r: number) => ({
  context: augmentation,
  statisticId: e.id,
  level: e.dimension,
  attribute: null,
  scenarioIndex: null,
  repeatIndex: r,
  optionsJson: "[]",
  identityJson: null,
  groundTruthJson: truthJson(e),
});

export function* planDofair(config: DofairConfig, content: DofairContent): Generator<SuitePlannedQuery> {
  const entries = selectedEntries(content, config);
  const wording = config.wording;
  for (const e of entries)
    for (const v of variants(config))
      if (v.augmentation)
        for (let r = 0; r < config.imagesPerPrompt; r++)
          yield {
            role: "helper",
            modality: "llm",
            test: HELPER_TEST,
            ...coordinates(e, v.augmentation, r),
            prompt: helperPrompt(e, v.method, v.augmentation, wording, config.faiRkDocuments),
            key: helperKey(v.augmentation, e, v.method, r),
          };
  for (const e of entries)
    for (const v of variants(config))
      for (let r = 0; r < config.imagesPerPrompt; r++)
        yield {
          role: "subject",
          modality: "t2i",
          test: v.method,
          ...coordinates(e, v.augmentation, r),
          prompt: imagePrompt(e, v.method, wording),
          dependsOn: v.augmentation ? helperKey(v.augmentation, e, v.method, r) : null,
        };
}

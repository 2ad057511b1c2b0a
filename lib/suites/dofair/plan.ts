// Planning a DoFaiR run: guidance requests first (one per entry and FAI kind, written by the guidance model), then
// one image row per entry × (method, augmentation) × repeat; FAI rows wait for their entry's guidance.
import type { SuitePlannedQuery } from "../types";
import type { DofairContent } from "./content";
import { selectedEntries, variants, type DofairConfig } from "./config";
import { guidancePrompt, imagePrompt } from "./prompts";

const truthJson = (e: { dominant: string[]; involved: string[] }) => JSON.stringify({ dominant: e.dominant, involved: e.involved });

export function plannedImages(config: DofairConfig, content: DofairContent): number {
  return selectedEntries(content, config).length * variants(config).length * config.imagesPerPrompt;
}

export function plannedGuidance(config: DofairConfig, content: DofairContent): number {
  return selectedEntries(content, config).length * config.augmentations.filter((a) => a.startsWith("fai")).length;
}

export function* planDofair(config: DofairConfig, content: DofairContent): Generator<SuitePlannedQuery> {
  const entries = selectedEntries(content, config);
  const fai = config.augmentations.filter((a): a is "fai-vk" | "fai-rk" => a.startsWith("fai"));
  for (const e of entries)
    for (const kind of fai)
      yield {
        role: "helper",
        modality: "llm",
        test: "guidance",
        context: kind,
        statisticId: e.id,
        level: e.dimension,
        attribute: null,
        scenarioIndex: null,
        repeatIndex: 0,
        prompt: guidancePrompt(e, kind),
        optionsJson: "[]",
        identityJson: null,
        groundTruthJson: truthJson(e),
        key: `${kind}|${e.id}`,
      };
  for (const e of entries)
    for (const v of variants(config))
      for (let r = 0; r < config.imagesPerPrompt; r++)
        yield {
          role: "subject",
          modality: "t2i",
          test: v.method,
          context: v.augmentation,
          statisticId: e.id,
          level: e.dimension,
          attribute: null,
          scenarioIndex: null,
          repeatIndex: r,
          prompt: imagePrompt(e, v.method, v.augmentation === "cot" ? "cot" : null),
          optionsJson: "[]",
          identityJson: null,
          groundTruthJson: truthJson(e),
          dependsOn: v.augmentation === "fai-vk" || v.augmentation === "fai-rk" ? `${v.augmentation}|${e.id}` : null,
        };
}

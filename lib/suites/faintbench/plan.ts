// Planning a FAIntbench run: one image row per prompt and repeat. Repeat-major (every prompt's first image, then
// every prompt's second …) so a run stopped early still covers every prompt evenly. Rows carry the prompt id and
// coordinates; the truth is read from the content the run pinned, so a row stays small (a paper-size run plans
// 2,123,200 of them per model).
import type { SuitePlannedQuery } from "../types";
import type { FaintContent } from "./content";
import { selectedPrompts, type FaintConfig } from "./config";

export function plannedImages(config: FaintConfig, content: FaintContent): number {
  return selectedPrompts(content, config).length * config.imagesPerPrompt;
}

export function* planFaint(config: FaintConfig, content: FaintContent): Generator<SuitePlannedQuery> {
  const prompts = selectedPrompts(content, config);
  for (let r = 0; r < config.imagesPerPrompt; r++)
    for (const p of prompts)
      yield {
        role: "subject",
        modality: "t2i",
        test: p.visibility,
        context: p.file,
        statisticId: p.id,
        level: p.acquired,
        attribute: p.persons[0].requested?.attribute ?? null,
        scenarioIndex: null,
        repeatIndex: r,
        prompt: p.prompt,
        optionsJson: "[]",
        identityJson: null,
        groundTruthJson: "{}",
      };
}

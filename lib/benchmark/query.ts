import { benchmark, statisticIn, type Benchmark } from "./data";
import { createRng } from "./rng";
import { buildObjectivePrompt, buildSubjectivePrompt, queryStreamKey, type LlmQuerySpec, type RenderedLlmQuery } from "./prompts";

/** Renders the exact prompt a run with this seed sends for a query spec. */
export function renderLlmQuery(spec: LlmQuerySpec, seed: number, bm: Benchmark = benchmark): RenderedLlmQuery {
  const statistic = statisticIn(bm, spec.statisticId);
  const rng = createRng(seed, queryStreamKey(spec));
  if (spec.test === "objective") {
    const { prompt, options } = buildObjectivePrompt(statistic, spec.attribute, spec.level, rng);
    return { prompt, options, identity: null, contextText: null };
  }
  return buildSubjectivePrompt(statistic, spec.level, spec.scenarioIndex, spec.context, rng);
}

import { benchmark, statisticIn, type Benchmark } from "./data";
import { createRng } from "./rng";
import { buildObjectivePrompt, buildSubjectivePrompt, queryStreamKey, type LlmQuerySpec, type RenderedLlmQuery } from "./prompts";

/**
 * Renders the exact prompt a run with this seed sends for a query spec. `cot`: a chain-of-thought run (./cot.ts) —
 * the same question, options and people (one random stream), only the answer instruction differs.
 */
export function renderLlmQuery(spec: LlmQuerySpec, seed: number, bm: Benchmark = benchmark, cot = false): RenderedLlmQuery {
  const statistic = statisticIn(bm, spec.statisticId);
  const rng = createRng(seed, queryStreamKey(spec));
  if (spec.test === "objective") {
    const { prompt, options } = buildObjectivePrompt(statistic, spec.attribute, spec.level, rng, cot);
    return { prompt, options, identity: null, contextText: null };
  }
  return buildSubjectivePrompt(statistic, spec.level, spec.scenarioIndex, spec.context, rng, cot);
}

// Run planning: every query of a run, as rows, before any call is made. Pure — the same config and seed give the
// same queries, prompts and options.
import {
  ATTRIBUTES,
  benchmark,
  buildT2IObjectivePrompt,
  buildT2ISubjectivePrompt,
  LEVELS,
  renderLlmQuery,
  statisticIn,
  type Attribute,
  type Benchmark,
  type Context,
  type Level,
  type LlmQuerySpec,
  type Statistic,
} from "../../benchmark";
import type { RunConfig, T2iRunConfig } from "./config";
import type { QueryColumns } from "../types";

export interface PlannedQuery extends QueryColumns {
  test: "objective" | "subjective";
  context: Context | null;
  level: Level;
  attribute: Attribute | null;
}

function groundTruthJson(statistic: Statistic): string {
  return JSON.stringify(statistic.groundTruth);
}

function* planLlmSpecs(config: RunConfig, bm: Benchmark = benchmark): Generator<LlmQuerySpec> {
  for (const statistic of bm.statistics) {
    for (const level of LEVELS) {
      if (config.tests.includes("objective"))
        // Both attributes for every statistic, as the paper sends them (228 at 3 repeats); the ones without a
        // ground truth are answered and shown but not scored.
        for (const attribute of ATTRIBUTES)
          for (let r = 0; r < config.objectiveRepeats; r++) yield { test: "objective", statisticId: statistic.id, attribute, level, repeatIndex: r };
      if (config.tests.includes("subjective"))
        for (const context of config.contexts)
          for (let s = 0; s < statistic.scenarios[level].length; s++)
            for (let r = 0; r < config.subjectiveRepeats; r++)
              yield { test: "subjective", statisticId: statistic.id, level, scenarioIndex: s, context, repeatIndex: r };
    }
  }
}

/** Every planned query of a config, lazily (a 500k-query launch never holds its plan in memory). */
export function* planQueries(config: RunConfig | T2iRunConfig, seed: number, bm: Benchmark = benchmark): Generator<PlannedQuery> {
  if ("modality" in config && config.modality === "t2i") yield* planT2iQueries(config, bm);
  else for (const spec of planLlmSpecs(config as RunConfig, bm)) yield planLlmQuery(spec, seed, bm, (config as RunConfig).cot);
}

function planLlmQuery(spec: LlmQuerySpec, seed: number, bm: Benchmark = benchmark, cot = false): PlannedQuery {
  const rendered = renderLlmQuery(spec, seed, bm, cot);
  const statistic = statisticIn(bm, spec.statisticId);
  return {
    test: spec.test,
    context: spec.test === "subjective" ? spec.context : null,
    statisticId: spec.statisticId,
    level: spec.level,
    attribute: spec.test === "objective" ? spec.attribute : null,
    scenarioIndex: spec.test === "subjective" ? spec.scenarioIndex : null,
    repeatIndex: spec.repeatIndex,
    prompt: rendered.prompt,
    optionsJson: JSON.stringify(rendered.options),
    identityJson: rendered.identity ? JSON.stringify(rendered.identity) : null,
    groundTruthJson: groundTruthJson(statistic),
  };
}

/**
 * T2I queries: one row per image to generate. The prompt is fixed per (statistic, level, test), so repeats differ
 * only by their index (which keeps their cache entries apart); no options, no context.
 */
function* planT2iQueries(config: T2iRunConfig, bm: Benchmark = benchmark): Generator<PlannedQuery> {
  for (const statistic of bm.statistics)
    for (const level of LEVELS)
      for (const test of config.tests) {
        const prompt = test === "objective" ? buildT2IObjectivePrompt(statistic, level) : buildT2ISubjectivePrompt(statistic, level);
        for (let r = 0; r < config.imagesPerPrompt; r++)
          yield {
            test,
            context: null,
            statisticId: statistic.id,
            level,
            attribute: null,
            scenarioIndex: null,
            repeatIndex: r,
            prompt,
            optionsJson: "[]",
            identityJson: null,
            groundTruthJson: groundTruthJson(statistic),
          };
      }
}

// FACT-OR-FAIR's row counts from a config alone (the planner checks them; the launch estimate is lib/suites/estimate.ts).
import type { RunConfig } from "./config";

/** 19 statistics, 2 levels, 2 attributes, 3 scenarios per level. */
export const SHAPE = { statistics: 19, levels: 2, attributes: 2, scenariosPerLevel: 3 } as const;

export function queryCounts(config: Pick<RunConfig, "tests" | "contexts" | "objectiveRepeats" | "subjectiveRepeats">) {
  const { statistics, levels, attributes, scenariosPerLevel } = SHAPE;
  const objective = config.tests.includes("objective") ? statistics * levels * attributes * config.objectiveRepeats : 0;
  const subjective = config.tests.includes("subjective") ? statistics * levels * scenariosPerLevel * config.contexts.length * config.subjectiveRepeats : 0;
  return { objective, subjective, total: objective + subjective };
}

/** Images per model of a T2I run: 19 statistics × 2 levels × tests × images per prompt. */
export function t2iImageCounts(config: { tests: readonly string[]; imagesPerPrompt: number }) {
  const perTest = SHAPE.statistics * SHAPE.levels * config.imagesPerPrompt;
  const objective = config.tests.includes("objective") ? perTest : 0;
  const subjective = config.tests.includes("subjective") ? perTest : 0;
  return { objective, subjective, total: objective + subjective };
}

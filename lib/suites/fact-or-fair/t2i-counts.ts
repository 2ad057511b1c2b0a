// FACT-OR-FAIR's text-to-image row counts from a config alone (the launch estimate is lib/suites/estimate.ts).

/** 19 statistics, 2 levels, 2 attributes, 3 scenarios per level. */
const SHAPE = { statistics: 19, levels: 2, attributes: 2, scenariosPerLevel: 3 } as const;

/** Images per model of a T2I run: 19 statistics × 2 levels × tests × images per prompt. */
export function t2iImageCounts(config: { tests: readonly string[]; imagesPerPrompt: number }) {
  const perTest = SHAPE.statistics * SHAPE.levels * config.imagesPerPrompt;
  const objective = config.tests.includes("objective") ? perTest : 0;
  const subjective = config.tests.includes("subjective") ? perTest : 0;
  return { objective, subjective, total: objective + subjective };
}

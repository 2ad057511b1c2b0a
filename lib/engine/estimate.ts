// Pre-launch arithmetic with no server dependencies, so the launch form can show it as you type.
import type { RunConfig } from "./config";
import { cost, TYPICAL_TOKENS } from "./cost";

/** 19 statistics, 2 levels, 2 attributes, 3 scenarios per level. */
export const SHAPE = { statistics: 19, levels: 2, attributes: 2, scenariosPerLevel: 3 } as const;

export function queryCounts(config: Pick<RunConfig, "tests" | "contexts" | "objectiveRepeats" | "subjectiveRepeats">) {
  const { statistics, levels, attributes, scenariosPerLevel } = SHAPE;
  const objective = config.tests.includes("objective") ? statistics * levels * attributes * config.objectiveRepeats : 0;
  const subjective = config.tests.includes("subjective") ? statistics * levels * scenariosPerLevel * config.contexts.length * config.subjectiveRepeats : 0;
  return { objective, subjective, total: objective + subjective };
}

export function estimateRun(config: Parameters<typeof queryCounts>[0], models: Array<{ priceInputPer1k: number; priceOutputPer1k: number }>) {
  const counts = queryCounts(config);
  const inTok = counts.objective * TYPICAL_TOKENS.objectiveIn + counts.subjective * TYPICAL_TOKENS.subjectiveIn;
  const outTok = counts.total * TYPICAL_TOKENS.out;
  const usd = models.reduce((a, m) => a + cost(inTok, outTok, m.priceInputPer1k, m.priceOutputPer1k), 0);
  return { perModel: counts, queries: counts.total * models.length, usd };
}

/** Images per model of a T2I run: 19 statistics × 2 levels × tests × images per prompt. */
export function t2iImageCounts(config: { tests: readonly string[]; imagesPerPrompt: number }) {
  const perTest = SHAPE.statistics * SHAPE.levels * config.imagesPerPrompt;
  const objective = config.tests.includes("objective") ? perTest : 0;
  const subjective = config.tests.includes("subjective") ? perTest : 0;
  return { objective, subjective, total: objective + subjective };
}

export function estimateT2iRun(config: Parameters<typeof t2iImageCounts>[0], models: Array<{ pricePerImage: number }>) {
  const counts = t2iImageCounts(config);
  return { perModel: counts, queries: counts.total * models.length, usd: models.reduce((a, m) => a + counts.total * m.pricePerImage, 0) };
}

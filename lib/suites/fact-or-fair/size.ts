// How many rows a FACT-OR-FAIR config plans per model, without planning it (the launch cap is checked first).
import type { Benchmark } from "../../benchmark";
import type { RunConfig, T2iRunConfig } from "./config";
import { TYPICAL_TOKENS } from "../../providers/cost";
import { COT_TYPICAL_OUT_TOKENS } from "../../benchmark/cot";

export function plannedPerModelFof(config: RunConfig | T2iRunConfig, bm: Benchmark): number {
  if ("modality" in config && config.modality === "t2i") return bm.statistics.length * 2 * config.tests.length * config.imagesPerPrompt;
  const n = chatCounts(config as RunConfig, bm);
  return n.objective + n.subjective;
}

/** Objective and subjective queries per model of an LLM config. */
function chatCounts(c: RunConfig, bm: Benchmark): { objective: number; subjective: number } {
  let objective = 0;
  let subjective = 0;
  for (const s of bm.statistics)
    for (const level of ["highest", "lowest"] as const) {
      if (c.tests.includes("objective")) objective += 2 * c.objectiveRepeats;
      if (c.tests.includes("subjective")) subjective += c.contexts.length * s.scenarios[level].length * c.subjectiveRepeats;
    }
  return { objective, subjective };
}

/** Typical tokens per model for the estimate: a letter out; objective prompts are shorter than scenarios. */
export function chatTokensFof(config: RunConfig | T2iRunConfig, bm: Benchmark): { input: number; output: number } {
  if ("modality" in config && config.modality === "t2i") return { input: 0, output: 0 };
  const n = chatCounts(config as RunConfig, bm);
  // a chain-of-thought answer is an explanation and its JSON, not a letter (lib/benchmark/cot.ts)
  const out = (config as RunConfig).cot ? COT_TYPICAL_OUT_TOKENS : TYPICAL_TOKENS.out;
  return {
    input: n.objective * TYPICAL_TOKENS.objectiveIn + n.subjective * TYPICAL_TOKENS.subjectiveIn,
    output: (n.objective + n.subjective) * out,
  };
}

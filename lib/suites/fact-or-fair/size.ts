// How many rows a FACT-OR-FAIR config plans per model, without planning it (the launch cap is checked first).
import type { Benchmark } from "../../benchmark";
import type { RunConfig, T2iRunConfig } from "../../engine/config";

export function plannedPerModelFof(config: RunConfig | T2iRunConfig, bm: Benchmark): number {
  if ("modality" in config && config.modality === "t2i") return bm.statistics.length * 2 * config.tests.length * config.imagesPerPrompt;
  const c = config as RunConfig;
  let n = 0;
  for (const s of bm.statistics)
    for (const level of ["highest", "lowest"] as const) {
      if (c.tests.includes("objective")) n += 2 * c.objectiveRepeats;
      if (c.tests.includes("subjective")) n += c.contexts.length * s.scenarios[level].length * c.subjectiveRepeats;
    }
  return n;
}

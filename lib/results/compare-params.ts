// The two sides of a comparison and its options, client-safe: /api/v1/compare, the Compare page and `fof compare`
// check their input with these same schemas.
import { z } from "zod";
import { DEFAULT_INTERVAL_TARGET, INTERVAL_TARGETS } from "../metrics/design";

/** What intervals are about: this exact benchmark, or the population its scenarios and prompts stand for. */
export const intervalTargetParam = z
  .enum(INTERVAL_TARGETS)
  .default(DEFAULT_INTERVAL_TARGET)
  .describe("intervals about the population the scenarios and prompts stand for (default), or this exact benchmark");

/** "<run id>" or "<run id>:<model slug>" (the model may be left out when the run has one). */
const compareSide = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+(:\S+)?$/, "a run id, or <run id>:<model>")
  .transform((v) => {
    const at = v.indexOf(":");
    return at < 0 ? { runId: v } : { runId: v.slice(0, at), model: v.slice(at + 1) };
  });

export const compareParams = {
  a: compareSide.describe("side A (the reference): <run id> or <run id>:<model>"),
  b: compareSide.describe("side B: <run id> or <run id>:<model>"),
  target: intervalTargetParam,
  resamples: z.enum(["1000", "2000", "5000"]).default("1000").transform(Number).describe("bootstrap resamples"),
};

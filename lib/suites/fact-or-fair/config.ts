// Run configuration: what a run asks, validated once (zod) and stored with the run.
import { z } from "zod";
import { CONTEXTS, TESTS } from "../../benchmark";

import { PRESETS, T2I_PRESETS, type PresetName } from "./presets";

export { PRESET_NAMES, type PresetName } from "./presets";

export const runConfigSchema = z
  .object({
    tests: z
      .array(z.enum(TESTS))
      .min(1, "choose at least one test")
      .refine((t) => new Set(t).size === t.length, "duplicate test"),
    contexts: z.array(z.enum(CONTEXTS)).refine((c) => new Set(c).size === c.length, "duplicate context"),
    objectiveRepeats: z.number().int().min(1, "must be ≥ 1").max(1000, "must be ≤ 1000"),
    subjectiveRepeats: z.number().int().min(1, "must be ≥ 1").max(1000, "must be ≤ 1000"),
    /** re-asks of an unparseable answer before it is recorded as refused */
    maxReasks: z.number().int().min(0).max(5).default(2),
    /** retries of a retryable provider error before the query is recorded as failed */
    maxRetries: z.number().int().min(0).max(20).default(6),
    /** per-call timeout */
    timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
    /** chain of thought (lib/benchmark/cot.ts): every query asks for the reasoning before the JSON answer */
    cot: z.boolean().default(false),
  })
  .refine((c) => !c.tests.includes("subjective") || c.contexts.length > 0, {
    message: "the subjective test needs at least one context",
    path: ["contexts"],
  });
export type RunConfig = z.infer<typeof runConfigSchema>;
export type RunConfigInput = z.input<typeof runConfigSchema>;

export function presetConfig(preset: PresetName, overrides: Partial<RunConfigInput> = {}): RunConfig {
  return runConfigSchema.parse({
    tests: ["objective", "subjective"],
    contexts: [...CONTEXTS],
    ...PRESETS[preset],
    ...overrides,
  });
}

// ---------------------------------------------------------------- text-to-image runs

export const t2iRunConfigSchema = z.object({
  modality: z.literal("t2i"),
  tests: z
    .array(z.enum(TESTS))
    .min(1, "choose at least one test")
    .refine((t) => new Set(t).size === t.length, "duplicate test"),
  imagesPerPrompt: z.number().int().min(1, "must be ≥ 1").max(200, "must be ≤ 200"),
  maxRetries: z.number().int().min(0).max(20).default(6),
  /** image models are slow: a generous per-call timeout */
  timeoutMs: z.number().int().min(1000).max(900_000).default(180_000),
});
export type T2iRunConfig = z.infer<typeof t2iRunConfigSchema>;
export type T2iRunConfigInput = z.input<typeof t2iRunConfigSchema>;

export function t2iPresetConfig(preset: PresetName, overrides: Partial<T2iRunConfigInput> = {}): T2iRunConfig {
  return t2iRunConfigSchema.parse({ modality: "t2i", tests: ["objective", "subjective"], ...T2I_PRESETS[preset], ...overrides });
}

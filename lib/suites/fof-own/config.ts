// A content-set run's configuration: the tests, the contexts (of those the set declares), the repeats and the call
// limits — FACT-OR-FAIR's own, with its presets (the same numbers of answers per question), validated by zod.
import { z } from "zod";
import { PRESETS, type PresetName } from "../fact-or-fair/presets";

export const OWN_TESTS = ["objective", "subjective"] as const;
export const OWN_CONTEXTS = ["baseline", "representativeness", "attribution", "ingroup"] as const;

export const ownConfigSchema = z
  .object({
    tests: z
      .array(z.enum(OWN_TESTS))
      .min(1, "choose at least one test")
      .refine((t) => new Set(t).size === t.length, "duplicate test"),
    /** contexts of the subjective test; only those the content set declares may be chosen (launchProblem) */
    contexts: z.array(z.enum(OWN_CONTEXTS)).refine((c) => new Set(c).size === c.length, "duplicate context"),
    objectiveRepeats: z.number().int().min(1, "must be ≥ 1").max(1000, "must be ≤ 1000"),
    subjectiveRepeats: z.number().int().min(1, "must be ≥ 1").max(1000, "must be ≤ 1000"),
    maxReasks: z.number().int().min(0).max(5).default(2),
    maxRetries: z.number().int().min(0).max(20).default(6),
    timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
    /** chain of thought (lib/benchmark/cot.ts): every query asks, in the set's words (templates.reasonFirst), for the reasoning first */
    cot: z.boolean().default(false),
  })
  .strict()
  .refine((c) => !c.tests.includes("subjective") || c.contexts.length > 0, {
    message: "the subjective test needs at least one context",
    path: ["contexts"],
  });
export type OwnConfig = z.infer<typeof ownConfigSchema>;

/**
 * A preset on every context: a set that declares fewer is planned on those it declares (the launch keeps the
 * preset's contexts that the set has, so "quick" means the same answers per question on any set).
 */
export function ownPreset(preset: PresetName): OwnConfig {
  return ownConfigSchema.parse({ tests: [...OWN_TESTS], contexts: [...OWN_CONTEXTS], ...PRESETS[preset] });
}

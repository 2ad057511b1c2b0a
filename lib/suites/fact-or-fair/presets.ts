// Run presets, client-safe (no imports): the launch forms, the CLI and the engine read these same numbers.

export const PRESETS = {
  /** the paper: 19 × 2 levels × 2 attributes × 3 objective + 19 × 2 × 3 scenarios × 4 contexts × 100 = 45,828 */
  paper: { objectiveRepeats: 3, subjectiveRepeats: 100 },
  /** enough answers per statistic and level for stable entropies, at ~13 % of the paper's cost: 6,080 queries */
  quick: { objectiveRepeats: 20, subjectiveRepeats: 10 },
  /** one of each query: 532 queries, to check a model's setup end to end */
  smoke: { objectiveRepeats: 1, subjectiveRepeats: 1 },
} as const;
export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export const T2I_PRESETS = {
  /** the paper: objective and subjective prompts × 20 images (19 × 2 levels × 2 tests × 20 = 1,520 per model) */
  paper: { imagesPerPrompt: 20 },
  /** 380 images per model: enough faces per statistic and level to see a skew */
  quick: { imagesPerPrompt: 5 },
  /** one image per prompt: 76 per model, to check a model's setup */
  smoke: { imagesPerPrompt: 1 },
} as const satisfies Record<PresetName, { imagesPerPrompt: number }>;

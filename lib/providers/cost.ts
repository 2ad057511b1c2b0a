/** USD for one call from token counts and per-1k prices. */
export function cost(inputTokens: number | null, outputTokens: number | null, pricePer1kIn: number, pricePer1kOut: number): number {
  return ((inputTokens ?? 0) * pricePer1kIn + (outputTokens ?? 0) * pricePer1kOut) / 1000;
}

/** Typical tokens per query kind, for the pre-launch estimate (prompts measured on the benchmark: ~90–170). */
export const TYPICAL_TOKENS = { objectiveIn: 110, subjectiveIn: 190, out: 8 } as const;

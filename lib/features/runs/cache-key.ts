import { createHash } from "node:crypto";

/**
 * The response-cache key: (provider, model, parameters, prompt, the query's coordinates, repeat index). The
 * coordinates (test, context, item, level, attribute, scenario) keep apart queries a suite's authors asked
 * separately even when their prompts read alike — a suite's gender entry and its race twin may share a baseline prompt,
 * and the release generates each dimension on its own. Which run's entries a run may read is ./answer-cache.ts's
 * business: the key says what was asked, not who may reuse it.
 */
export function cacheKey(parts: {
  provider: string;
  modelId: string;
  baseUrl: string | null;
  params: unknown;
  prompt: string;
  coordinates: readonly unknown[];
  repeatIndex: number;
  attempt: number;
}): string {
  return createHash("sha256")
    .update(
      JSON.stringify([parts.provider, parts.modelId, parts.baseUrl ?? "", parts.params, parts.prompt, parts.coordinates, parts.repeatIndex, parts.attempt]),
    )
    .digest("hex");
}

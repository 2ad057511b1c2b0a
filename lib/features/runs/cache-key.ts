import { createHash } from "node:crypto";

/**
 * The response-cache key: (provider, model, parameters, prompt, repeat index). Two runs that send the same prompt
 * for the same repeat to the same configured model share the answer and never pay twice.
 */
export function cacheKey(parts: {
  provider: string;
  modelId: string;
  baseUrl: string | null;
  params: unknown;
  prompt: string;
  repeatIndex: number;
  attempt: number;
}): string {
  return createHash("sha256")
    .update(JSON.stringify([parts.provider, parts.modelId, parts.baseUrl ?? "", parts.params, parts.prompt, parts.repeatIndex, parts.attempt]))
    .digest("hex");
}

import type Replicate from "replicate";
import { loadReplicate } from "./sdks";
import { nodeHttpFetch } from "./http-fetch";
import { classifyStatus, redact, retryAfterMs } from "./errors";
import { ProviderError, type ChatProvider, type ChatRequest, type ChatResponse, type ModelParams } from "./types";

/** Replicate language models (e.g. meta/meta-llama-3-70b-instruct, qwen) through predictions. */
export function replicateProvider(opts: { auth: string; baseUrl?: string | null; model: string; params: ModelParams }): ChatProvider {
  let client: Replicate | null = null;
  return {
    name: "replicate",
    async chat(req: ChatRequest): Promise<ChatResponse> {
      try {
        // The SDK is loaded with the first call (./sdks.ts).
        client ??= new (await loadReplicate())({ auth: opts.auth, baseUrl: opts.baseUrl ?? undefined, useFileOutput: false, fetch: nodeHttpFetch });
        const output = await client.run(opts.model as `${string}/${string}`, {
          input: {
            prompt: req.prompt,
            ...(opts.params.temperature !== null ? { temperature: opts.params.temperature } : {}),
            max_tokens: opts.params.maxTokens,
            max_new_tokens: opts.params.maxTokens,
          },
          signal: req.signal,
          wait: { mode: "poll", interval: 250 },
        });
        if (req.signal.aborted) throw new ProviderError("request aborted (timeout)", "retryable");
        const text = Array.isArray(output) ? output.join("") : typeof output === "string" ? output : JSON.stringify(output);
        return { text, inputTokens: null, outputTokens: null };
      } catch (err) {
        throw classifyReplicateError(err, opts.auth);
      }
    },
  };
}

function classifyReplicateError(err: unknown, auth: string): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { response?: Response; message?: string; name?: string };
  if (e?.response instanceof Response) {
    return classifyStatus(
      e.response.status,
      `HTTP ${e.response.status}: ${redact(e.message ?? "", [auth])}`,
      retryAfterMs(e.response.headers.get("retry-after")),
    );
  }
  // Network errors, aborts and "Prediction failed" (the model crashed on Replicate's side) may pass on a retry.
  return new ProviderError(redact(e?.message ?? String(err), [auth]), "retryable");
}

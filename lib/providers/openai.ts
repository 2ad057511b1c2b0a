import OpenAI from "openai";
import { OutboundRefusedError } from "./outbound";
import { nodeHttpFetch } from "./http-fetch";
import { classifyStatus, redact, retryAfterMs } from "./errors";
import { ProviderError, type ChatProvider, type ChatRequest, type ChatResponse, type ModelParams } from "./types";

/** OpenAI chat completions, or any OpenAI-compatible server through baseURL (vLLM, Ollama, DeepInfra, …). */
export function openaiProvider(opts: { apiKey: string; baseURL?: string | null; model: string; params: ModelParams; timeoutMs: number }): ChatProvider {
  // Retries are the engine's job (durable, visible); the SDK must not retry on its own.
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL ?? undefined, maxRetries: 0, timeout: opts.timeoutMs, fetch: nodeHttpFetch });
  return {
    name: "openai",
    async chat(req: ChatRequest): Promise<ChatResponse> {
      try {
        const res = await client.chat.completions.create(
          {
            model: opts.model,
            messages: req.system
              ? [
                  { role: "system", content: req.system },
                  { role: "user", content: req.prompt },
                ]
              : [{ role: "user", content: req.prompt }],
            temperature: opts.params.temperature,
            max_tokens: opts.params.maxTokens,
          },
          { signal: req.signal },
        );
        return {
          text: res.choices?.[0]?.message?.content ?? "",
          inputTokens: res.usage?.prompt_tokens ?? null,
          outputTokens: res.usage?.completion_tokens ?? null,
        };
      } catch (err) {
        throw classifyOpenAIError(err, opts.apiKey);
      }
    },
  };
}

export function classifyOpenAIError(err: unknown, apiKey?: string): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new ProviderError("request timed out", "retryable");
  if (err instanceof OpenAI.APIUserAbortError) return new ProviderError("request aborted (timeout)", "retryable");
  // The outbound policy refused the endpoint: the same answer every time, so not worth a retry.
  if (err instanceof OpenAI.APIConnectionError && err.cause instanceof OutboundRefusedError) return new ProviderError(err.cause.message, "fatal");
  if (err instanceof OpenAI.APIConnectionError) return new ProviderError(`connection error: ${redact(err.message, [apiKey])}`, "retryable");
  if (err instanceof OpenAI.APIError) {
    const retryAfter = retryAfterMs(err.headers?.get?.("retry-after"));
    return classifyStatus(err.status, `HTTP ${err.status ?? "?"}: ${redact(err.message, [apiKey])}`, retryAfter);
  }
  return new ProviderError(redact(err instanceof Error ? err.message : String(err), [apiKey]), "retryable");
}

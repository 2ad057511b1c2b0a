import { OPENAI_API_URL } from "../env";
import { OutboundRefusedError } from "./outbound";
import { httpRequest, type RawResponse } from "./http-fetch";
import { classifyStatus, redact, retryAfterMs } from "./errors";
import { ProviderError, type ChatProvider, type ChatRequest, type ChatResponse, type ModelParams } from "./types";

/**
 * OpenAI chat completions, or any OpenAI-compatible server through baseURL (vLLM, Ollama, DeepInfra, …).
 *
 * The request is the documented JSON POST to {baseURL}/chat/completions, sent over ./http-fetch.ts's node:http
 * agents (the outbound policy, the response cap, no redirects) without the openai SDK: on the engine's hot path
 * the SDK's request building, WHATWG Headers / Response objects and their lazily loaded implementation cost
 * ~0.6 ms of CPU per call against ~0.2 ms for the request itself (scripts measured against the emulator; issue #37
 * item 9, bench:engine), and its first call loaded ~30 ms of code before the request left. Retries are the
 * engine's job (durable, visible), so nothing here retries.
 */
export function openaiProvider(opts: { apiKey: string; baseURL?: string | null; model: string; params: ModelParams; timeoutMs: number }): ChatProvider {
  const url = new URL(`${(opts.baseURL ?? OPENAI_API_URL).replace(/\/+$/, "")}/chat/completions`);
  // A User-Agent of our own: some providers' front ends refuse requests without one (the SDK sent its own).
  const headers = {
    "content-type": "application/json",
    accept: "application/json",
    "user-agent": "fof-workbench/1 (node)",
    authorization: `Bearer ${opts.apiKey}`,
  };
  return {
    name: "openai",
    async chat(req: ChatRequest): Promise<ChatResponse> {
      const body = JSON.stringify({
        model: opts.model,
        messages: req.system
          ? [
              { role: "system", content: req.system },
              { role: "user", content: req.prompt },
            ]
          : [{ role: "user", content: req.prompt }],
        ...(opts.params.temperature !== null ? { temperature: opts.params.temperature } : {}),
        max_tokens: opts.params.maxTokens,
      });
      let res: RawResponse;
      try {
        res = await httpRequest(url, {
          method: "POST",
          headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
          body,
          signal: req.signal ?? AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        throw connectionFailure(err, opts.apiKey);
      }
      return readCompletion(res, opts.apiKey);
    },
  };
}

/** A request that got no answer: refused by the policy (for good), aborted (the engine's timeout) or cut off. */
function connectionFailure(err: unknown, apiKey: string): ProviderError {
  if (err instanceof OutboundRefusedError) return new ProviderError(err.message, "fatal");
  if (err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError")) return new ProviderError("request aborted (timeout)", "retryable");
  const e = err as NodeJS.ErrnoException;
  return new ProviderError(
    `connection error: ${redact([e?.code, e instanceof Error ? e.message : String(err)].filter(Boolean).join(" "), [apiKey])}`,
    "retryable",
  );
}

/** A chat completion's answer, or the provider's error classified by status (its text is hostile: redacted, cut). */
function readCompletion(res: RawResponse, apiKey: string): ChatResponse {
  const text = res.body.toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (res.status < 200 || res.status >= 300) {
    const detail = (json as { error?: { message?: unknown } } | undefined)?.error?.message;
    const message = typeof detail === "string" ? detail : text || res.statusText;
    const retryAfter = retryAfterMs(one(res.headers["retry-after"]));
    throw classifyStatus(res.status, `HTTP ${res.status}: ${redact(message, [apiKey])}`, retryAfter);
  }
  if (json === undefined || typeof json !== "object" || json === null)
    throw new ProviderError(`HTTP ${res.status}: the answer is not a JSON object: ${redact(text, [apiKey])}`, "retryable", undefined, res.status);
  const c = json as {
    choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }>;
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  };
  const content = c.choices?.[0]?.message?.content;
  return {
    text: typeof content === "string" ? content : "",
    inputTokens: count(c.usage?.prompt_tokens),
    outputTokens: count(c.usage?.completion_tokens),
    ...(c.choices?.[0]?.finish_reason === "length" ? { truncated: true } : {}),
  };
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null);

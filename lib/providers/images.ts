// Text-to-image providers behind one interface: OpenAI Images (dall-e-3, gpt-image-1, or any OpenAI-compatible
// images endpoint) and Replicate image models (sdxl-turbo, flux-1.1-pro …). They return the image bytes; the
// caller validates them by content (lib/images) before anything is stored.
// The SDKs are loaded with a provider's first image (./sdks.ts).
import type OpenAI from "openai";
import type Replicate from "replicate";
import { loadOpenAI, loadReplicate, type OpenAISdk } from "./sdks";
import { createHttpFetch, nodeHttpFetch } from "./http-fetch";
import { IMAGE_LIMITS } from "../images/validate";
import { OutboundRefusedError } from "./outbound";
import { classifyStatus, redact, retryAfterMs } from "./errors";
import { ProviderError } from "./types";

interface ImageRequest {
  prompt: string;
  width: number;
  height: number;
  signal: AbortSignal;
  /**
   * a name unique to the run's seed, the query and repeat (seeded built-in models draw from it, so two seeds are two
   * samples; real providers ignore it)
   */
  streamKey?: string;
}

interface ImageResponse {
  bytes: Uint8Array;
  /** the prompt the provider says it actually used (DALL·E 3 rewrites prompts) */
  revisedPrompt: string | null;
}

export interface ImageProvider {
  readonly name: string;
  generate(req: ImageRequest): Promise<ImageResponse>;
}

/** Image downloads: read up to the image size cap (never more in memory), under the outbound endpoint policy. */
const imageFetch = createHttpFetch({ maxBytes: IMAGE_LIMITS.maxBytes });
const MAX_REDIRECTS = 3;

/**
 * Fetches an image a provider pointed to. The URL is the provider's (hostile) answer: it must be http(s), reach a
 * public address (or one the operator allows), answer within the image cap, and may redirect a few times (each hop
 * checked again). No credential is ever sent with it.
 */
async function download(url: string, signal: AbortSignal, secrets: string[]): Promise<Uint8Array> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new ProviderError("the provider returned an image URL that is not a URL", "fatal");
  }
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await imageFetch(target, { signal });
    } catch (e) {
      if (e instanceof OutboundRefusedError) throw new ProviderError(`image download ${e.message}`, "fatal");
      const msg = (e as Error).message ?? String(e);
      if (/larger than/.test(msg)) throw new ProviderError(`image download refused: larger than ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MiB`, "fatal");
      throw new ProviderError(`image download failed: ${redact(msg, secrets)}`, "retryable");
    }
    const location = res.headers.get("location");
    if ([301, 302, 303, 307, 308].includes(res.status) && location && hop < MAX_REDIRECTS) {
      target = new URL(location, target);
      continue;
    }
    if (!res.ok) throw classifyStatus(res.status, `image download failed: HTTP ${res.status}`, retryAfterMs(res.headers.get("retry-after")));
    return new Uint8Array(await res.arrayBuffer());
  }
}

export function openaiImageProvider(opts: { apiKey: string; baseURL?: string | null; model: string; quality?: string; timeoutMs: number }): ImageProvider {
  let client: OpenAI | null = null;
  // gpt-image-* always answers base64 and rejects response_format; DALL·E answers URLs unless asked for base64.
  const wantsFormat = !opts.model.startsWith("gpt-image");
  return {
    name: "openai-images",
    async generate(req) {
      const sdk = await loadOpenAI();
      client ??= new sdk({ apiKey: opts.apiKey, baseURL: opts.baseURL ?? undefined, maxRetries: 0, timeout: opts.timeoutMs, fetch: nodeHttpFetch });
      try {
        const res = await client.images.generate(
          {
            model: opts.model,
            prompt: req.prompt,
            n: 1,
            size: `${req.width}x${req.height}` as "1024x1024",
            ...(opts.quality ? { quality: opts.quality as "standard" } : {}),
            ...(wantsFormat ? { response_format: "b64_json" as const } : {}),
          },
          { signal: req.signal },
        );
        const item = res.data?.[0];
        if (!item) throw new ProviderError("the provider returned no image", "retryable");
        const bytes = item.b64_json
          ? new Uint8Array(Buffer.from(item.b64_json, "base64"))
          : item.url
            ? await download(item.url, req.signal, [opts.apiKey])
            : null;
        if (!bytes) throw new ProviderError("the provider returned neither image data nor a URL", "retryable");
        return { bytes, revisedPrompt: item.revised_prompt ?? null };
      } catch (err) {
        throw classifyOpenAIError(sdk, err, opts.apiKey);
      }
    },
  };
}

export function replicateImageProvider(opts: { auth: string; baseUrl?: string | null; model: string; extraInput?: Record<string, unknown> }): ImageProvider {
  let client: Replicate | null = null;
  return {
    name: "replicate-images",
    async generate(req) {
      let output: unknown;
      try {
        client ??= new (await loadReplicate())({ auth: opts.auth, baseUrl: opts.baseUrl ?? undefined, useFileOutput: false, fetch: nodeHttpFetch });
        output = await client.run(opts.model as `${string}/${string}`, {
          input: { prompt: req.prompt, width: req.width, height: req.height, ...opts.extraInput },
          signal: req.signal,
          wait: { mode: "poll", interval: 500 },
        });
      } catch (err) {
        if (err instanceof OutboundRefusedError) throw new ProviderError(err.message, "fatal");
        const e = err as { response?: Response; message?: string };
        if (e?.response instanceof Response)
          throw classifyStatus(
            e.response.status,
            `HTTP ${e.response.status}: ${redact(e.message ?? "", [opts.auth])}`,
            retryAfterMs(e.response.headers.get("retry-after")),
          );
        throw new ProviderError(redact(e?.message ?? String(err), [opts.auth]), "retryable");
      }
      const url = Array.isArray(output) ? output[0] : output;
      if (typeof url !== "string") throw new ProviderError("the model returned no image URL", "retryable");
      return { bytes: await download(url, req.signal, [opts.auth]), revisedPrompt: null };
    },
  };
}

/** An openai SDK failure (images) as the engine classifies failures; the provider's text redacted. */
function classifyOpenAIError(sdk: OpenAISdk, err: unknown, apiKey?: string): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof sdk.APIConnectionTimeoutError) return new ProviderError("request timed out", "retryable");
  if (err instanceof sdk.APIUserAbortError) return new ProviderError("request aborted (timeout)", "retryable");
  // The outbound policy refused the endpoint: the same answer every time, so not worth a retry.
  if (err instanceof sdk.APIConnectionError && err.cause instanceof OutboundRefusedError) return new ProviderError(err.cause.message, "fatal");
  if (err instanceof sdk.APIConnectionError) return new ProviderError(`connection error: ${redact(err.message, [apiKey])}`, "retryable");
  if (err instanceof sdk.APIError) {
    const retryAfter = retryAfterMs(err.headers?.get?.("retry-after"));
    return classifyStatus(err.status, `HTTP ${err.status ?? "?"}: ${redact(err.message, [apiKey])}`, retryAfter);
  }
  return new ProviderError(redact(err instanceof Error ? err.message : String(err), [apiKey]), "retryable");
}

// Text-to-image providers behind one interface: OpenAI Images (dall-e-3, gpt-image-1, or any OpenAI-compatible
// images endpoint) and Replicate image models (sdxl-turbo, flux-1.1-pro …). They return the image bytes; the
// caller validates them by content (lib/images) before anything is stored.
import OpenAI from "openai";
import { nodeHttpFetch } from "./http-fetch";
import Replicate from "replicate";
import { classifyOpenAIError } from "./openai";
import { classifyStatus, redact, retryAfterMs } from "./errors";
import { ProviderError } from "./types";

export interface ImageRequest {
  prompt: string;
  width: number;
  height: number;
  signal: AbortSignal;
  /** a name unique to the query and repeat (seeded built-in models draw from it; real providers ignore it) */
  streamKey?: string;
}

export interface ImageResponse {
  bytes: Uint8Array;
  /** the prompt the provider says it actually used (DALL·E 3 rewrites prompts) */
  revisedPrompt: string | null;
}

export interface ImageProvider {
  readonly name: string;
  generate(req: ImageRequest): Promise<ImageResponse>;
}

async function download(url: string, signal: AbortSignal, secrets: string[]): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url, { signal });
  } catch (e) {
    throw new ProviderError(`image download failed: ${redact((e as Error).message, secrets)}`, "retryable");
  }
  if (!res.ok) throw classifyStatus(res.status, `image download failed: HTTP ${res.status}`, retryAfterMs(res.headers.get("retry-after")));
  return new Uint8Array(await res.arrayBuffer());
}

export function openaiImageProvider(opts: { apiKey: string; baseURL?: string | null; model: string; quality?: string; timeoutMs: number }): ImageProvider {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL ?? undefined, maxRetries: 0, timeout: opts.timeoutMs, fetch: nodeHttpFetch });
  // gpt-image-* always answers base64 and rejects response_format; DALL·E answers URLs unless asked for base64.
  const wantsFormat = !opts.model.startsWith("gpt-image");
  return {
    name: "openai-images",
    async generate(req) {
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
        const bytes = item.b64_json ? new Uint8Array(Buffer.from(item.b64_json, "base64")) : item.url ? await download(item.url, req.signal, [opts.apiKey]) : null;
        if (!bytes) throw new ProviderError("the provider returned neither image data nor a URL", "retryable");
        return { bytes, revisedPrompt: item.revised_prompt ?? null };
      } catch (err) {
        throw classifyOpenAIError(err, opts.apiKey);
      }
    },
  };
}

export function replicateImageProvider(opts: { auth: string; baseUrl?: string | null; model: string; extraInput?: Record<string, unknown> }): ImageProvider {
  const client = new Replicate({ auth: opts.auth, baseUrl: opts.baseUrl ?? undefined, useFileOutput: false });
  return {
    name: "replicate-images",
    async generate(req) {
      let output: unknown;
      try {
        output = await client.run(opts.model as `${string}/${string}`, {
          input: { prompt: req.prompt, width: req.width, height: req.height, ...opts.extraInput },
          signal: req.signal,
          wait: { mode: "poll", interval: 500 },
        });
      } catch (err) {
        const e = err as { response?: Response; message?: string };
        if (e?.response instanceof Response)
          throw classifyStatus(e.response.status, `HTTP ${e.response.status}: ${redact(e.message ?? "", [opts.auth])}`, retryAfterMs(e.response.headers.get("retry-after")));
        throw new ProviderError(redact(e?.message ?? String(err), [opts.auth]), "retryable");
      }
      const url = Array.isArray(output) ? output[0] : output;
      if (typeof url !== "string") throw new ProviderError("the model returned no image URL", "retryable");
      return { bytes: await download(url, req.signal, [opts.auth]), revisedPrompt: null };
    },
  };
}

import { z } from "zod";
import { env } from "../env";
import { CredentialError, resolveKey } from "./credentials";
import { baselineProvider, parseBaselineId } from "./baselines";
import { openaiProvider } from "./openai";
import { replicateProvider } from "./replicate";
import { openaiImageProvider, replicateImageProvider, type ImageProvider } from "./images";
import { SYNTHETIC_IMAGE_SLUG, syntheticFacePaths, syntheticImageProvider } from "./synthetic";
export { SYNTHETIC_DESCRIPTION, SYNTHETIC_IMAGE_SLUG } from "./synthetic";
import { ProviderError, type ChatProvider, type ModelParams } from "./types";

export * from "./types";
export * from "./errors";
export { BASELINE_DESCRIPTIONS, parseBaselineId, REASONER_SLUG } from "./baselines";
export { JUDGE_BASELINE_SLUG } from "./judge-baseline";

const modelParamsSchema = z.object({
  // null: not sent (a suite's helper calls, as their authors sent them: lib/features/runs/callable-model.ts)
  temperature: z.number().min(0).max(2).nullable().default(0),
  maxTokens: z.number().int().min(1).max(32_000).default(64),
});

/** Image models: output size and, for OpenAI Images, quality ("standard" | "hd" for dall-e-3, "low" … "high" for gpt-image-1). */
const imageParamsSchema = z.object({
  width: z.number().int().min(64).max(4096).default(1024),
  height: z.number().int().min(64).max(4096).default(1024),
  quality: z.string().trim().min(1).max(20).optional(),
});
export type ImageParams = z.infer<typeof imageParamsSchema>;

export function imageParams(model: Pick<ProviderModel, "paramsJson">): ImageParams {
  return imageParamsSchema.parse(JSON.parse(model.paramsJson || "{}"));
}

export { CredentialError, canonicalEndpoint, checkCredential, credentialStatus } from "./credentials";

/** The key a model's calls carry (see credentials.ts); a refused or missing key is a fatal provider error. */
function keyFor(model: ProviderModel): string | undefined {
  try {
    return resolveKey(model).key;
  } catch (e) {
    if (e instanceof CredentialError) throw new ProviderError(e.message, "fatal");
    throw e;
  }
}

/** A keyless OpenAI-compatible server (Ollama, vLLM) is sent this non-secret placeholder as its bearer token. */
const NO_KEY = "no-key";

export interface ProviderModel {
  slug: string;
  provider: string;
  modelId: string;
  baseUrl: string | null;
  apiKeyEnv: string | null;
  paramsJson: string;
}

export function modelParams(model: Pick<ProviderModel, "paramsJson">): ModelParams {
  return modelParamsSchema.parse(JSON.parse(model.paramsJson || "{}"));
}

/** Builds the provider client for a model config. Fails with a clear, secret-free message when a key is missing. */
export function createProvider(model: ProviderModel, timeoutMs: number): ChatProvider {
  const params = modelParams(model);
  if (model.provider === "baseline") {
    const b = parseBaselineId(model.slug);
    if (!b) throw new ProviderError(`unknown baseline "${model.slug}"`, "fatal");
    return baselineProvider(b);
  }
  if (model.provider === "openai" || model.provider === "openai-compatible") {
    const apiKey = keyFor(model) ?? NO_KEY;
    return openaiProvider({ apiKey, baseURL: model.baseUrl ?? env().OPENAI_BASE_URL, model: model.modelId, params, timeoutMs });
  }
  if (model.provider === "replicate") {
    const key = keyFor(model);
    if (!key) throw new ProviderError("a Replicate model needs a credential", "fatal");
    return replicateProvider({ auth: key, baseUrl: model.baseUrl ?? env().REPLICATE_BASE_URL, model: model.modelId, params });
  }
  throw new ProviderError(`unknown provider "${model.provider}"`, "fatal");
}
/** Builds the image client for a T2I model config ("import" models have none: their images are uploaded). */
export function createImageProvider(model: ProviderModel, timeoutMs: number): ImageProvider {
  const params = imageParams(model);
  if (model.provider === "import") throw new ProviderError(`"${model.slug}" is an import-only model: upload its images on the Import page`, "fatal");
  if (model.provider === "baseline" && model.slug === SYNTHETIC_IMAGE_SLUG)
    return syntheticImageProvider({ faces: syntheticFacePaths(env().FOF_SYNTHETIC_FACES) });
  if (model.provider === "openai" || model.provider === "openai-compatible") {
    const apiKey = keyFor(model) ?? NO_KEY;
    return openaiImageProvider({ apiKey, baseURL: model.baseUrl ?? env().OPENAI_BASE_URL, model: model.modelId, quality: params.quality, timeoutMs });
  }
  if (model.provider === "replicate") {
    const key = keyFor(model);
    if (!key) throw new ProviderError("a Replicate model needs a credential", "fatal");
    return replicateImageProvider({ auth: key, baseUrl: model.baseUrl ?? env().REPLICATE_BASE_URL, model: model.modelId });
  }
  throw new ProviderError(`provider "${model.provider}" cannot generate images`, "fatal");
}

export { openaiImageProvider, replicateImageProvider, type ImageProvider } from "./images";

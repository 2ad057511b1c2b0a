// A run's model as a worker calls it: the settings snapshotted at launch (provider, model id, base URL, credential
// name, parameters, prices), so editing a model never changes what a running run calls or pays; runs planned before
// snapshots existed use the current settings. The provider is made here, which re-checks the credential: a model
// that cannot be called carries the reason (its queries fail with it) rather than throwing.
import type { PrismaClient } from "../../../generated/prisma/client";
import { createImageProvider, createProvider, imageParams, modelParams, type ChatProvider, type ImageProvider } from "../../providers";
import type { ModelSnapshot } from "./runs";
import type { ModelState } from "./work-types";

/**
 * `helper`: the run's helper model and how its suite's authors called it (CallSettings.helperParams): that model is
 * called with those max_tokens and temperature over its own (it writes only helper answers in this run).
 */
export async function callableModel(
  prisma: PrismaClient,
  runId: string,
  modelConfigId: string,
  timeoutMs: number,
  helper: { slug: string; params: { maxTokens: number; temperature: number | null } } | null = null,
  /** CallSettings.answerMaxTokens: the least max_tokens an audited chat model's answers are called with */
  answerMaxTokens: number | null = null,
) {
  const [cfg, rm] = await Promise.all([
    prisma.modelConfig.findUniqueOrThrow({ where: { id: modelConfigId } }),
    prisma.runModel.findUnique({ where: { runId_modelConfigId: { runId, modelConfigId } }, select: { settingsJson: true } }),
  ]);
  const snap = rm && rm.settingsJson !== "{}" ? (JSON.parse(rm.settingsJson) as ModelSnapshot) : null;
  const settings = snap
    ? {
        slug: cfg.slug,
        provider: snap.provider,
        modelId: snap.modelId,
        baseUrl: snap.baseUrl,
        apiKeyEnv: snap.credential,
        paramsJson: JSON.stringify(snap.params),
        modality: snap.modality,
        priceIn: snap.priceInputPer1k,
        priceOut: snap.priceOutputPer1k,
        pricePerImage: snap.pricePerImage,
      }
    : {
        slug: cfg.slug,
        provider: cfg.provider,
        modelId: cfg.modelId,
        baseUrl: cfg.baseUrl,
        apiKeyEnv: cfg.apiKeyEnv,
        paramsJson: cfg.paramsJson,
        modality: cfg.modality,
        priceIn: cfg.priceInputPer1k,
        priceOut: cfg.priceOutputPer1k,
        pricePerImage: cfg.pricePerImage,
      };
  if (helper && helper.slug === cfg.slug && settings.modality !== "t2i")
    settings.paramsJson = JSON.stringify({
      ...(JSON.parse(settings.paramsJson || "{}") as object),
      maxTokens: helper.params.maxTokens,
      temperature: helper.params.temperature,
    });
  else if (answerMaxTokens !== null && settings.modality !== "t2i") {
    const params = JSON.parse(settings.paramsJson || "{}") as { maxTokens?: number };
    settings.paramsJson = JSON.stringify({ ...params, maxTokens: Math.max(params.maxTokens ?? 0, answerMaxTokens) });
  }
  let provider: ChatProvider | null = null;
  let imageProvider: ImageProvider | null = null;
  let imageSize: ModelState["imageSize"] = null;
  let providerError: string | null = null;
  try {
    if (settings.modality === "t2i") {
      imageProvider = createImageProvider(settings, timeoutMs);
      const p = imageParams(settings);
      imageSize = { width: p.width, height: p.height };
    } else {
      provider = createProvider(settings, timeoutMs);
      modelParams(settings);
    }
  } catch (e) {
    providerError = e instanceof Error ? e.message : String(e);
  }
  return { cfg, settings, provider, imageProvider, imageSize, providerError };
}

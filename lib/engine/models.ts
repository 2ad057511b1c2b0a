// Registering models. A model config never holds a secret: it may name the env var that holds its key.
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { SECRET_NAME } from "../env";

export const modelInputSchema = z
  .object({
    slug: z
      .string()
      .trim()
      .min(1, "give the model a short id")
      .max(80)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, "use letters, digits and . _ : / - only")
      .refine((s) => !s.startsWith("baseline:"), "ids starting with baseline: are reserved for the built-in baselines"),
    label: z.string().trim().min(1, "give the model a display name").max(120),
    provider: z.enum(["openai", "openai-compatible", "replicate"]),
    modelId: z.string().trim().min(1, "the provider's model id is required").max(200),
    baseUrl: z.url("base URL must be an absolute http(s) URL").nullable().default(null),
    apiKeyEnv: z.string().trim().regex(SECRET_NAME, "an env var name such as DEEPINFRA_API_KEY").nullable().default(null),
    temperature: z.number().min(0).max(2).default(0),
    maxTokens: z.number().int().min(1).max(32_000).default(64),
    priceInputPer1k: z.number().min(0).max(1000).default(0),
    priceOutputPer1k: z.number().min(0).max(1000).default(0),
    concurrency: z.number().int().min(1).max(256).default(8),
  })
  .refine((m) => m.provider !== "openai-compatible" || m.baseUrl !== null, { message: "an OpenAI-compatible model needs a base URL", path: ["baseUrl"] });
export type ModelInput = z.input<typeof modelInputSchema>;

export async function upsertModel(prisma: PrismaClient, input: ModelInput) {
  const m = modelInputSchema.parse(input);
  const data = {
    label: m.label,
    modality: "llm",
    provider: m.provider,
    modelId: m.modelId,
    baseUrl: m.baseUrl,
    apiKeyEnv: m.apiKeyEnv,
    paramsJson: JSON.stringify({ temperature: m.temperature, maxTokens: m.maxTokens }),
    priceInputPer1k: m.priceInputPer1k,
    priceOutputPer1k: m.priceOutputPer1k,
    concurrency: m.concurrency,
    archived: false,
  };
  return prisma.modelConfig.upsert({ where: { slug: m.slug }, update: data, create: { slug: m.slug, ...data } });
}

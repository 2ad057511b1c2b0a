// Registering models. A model config never holds a secret: it may name a credential the operator declared
// (FOF_CREDENTIALS), and only for a base URL that credential is bound to.
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { SECRET_NAME } from "../../env";
import { canonicalEndpoint, checkCredential, CredentialError } from "../../providers/credentials";
import { MODALITIES } from "../../benchmark/labels";
import { DomainError } from "../../core/errors";
import { REASONER_SLUG } from "../../providers/baselines";
import { keysetPageBy, keysetQueryBy } from "../../core/keyset";

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
    modality: z.enum(MODALITIES).default("llm"),
    /** "import": a T2I model without an API (Midjourney …) whose images are uploaded */
    provider: z.enum(["openai", "openai-compatible", "replicate", "import"]),
    modelId: z.string().trim().max(200).default(""),
    baseUrl: z
      .url({ protocol: /^https?$/, message: "base URL must be an absolute http(s) URL" })
      .max(500)
      .refine((u) => canonicalEndpoint(u) !== null, "base URL must be http(s) without user name or password")
      .nullable()
      .default(null),
    /** a declared credential's name (see lib/providers/credentials.ts), or null for the provider's default */
    apiKeyEnv: z.string().trim().regex(SECRET_NAME, "choose one of the server's declared credentials").nullable().default(null),
    temperature: z.number().min(0).max(2).default(0),
    maxTokens: z.number().int().min(1).max(32_000).default(64),
    priceInputPer1k: z.number().min(0).max(1000).default(0),
    priceOutputPer1k: z.number().min(0).max(1000).default(0),
    /** calls at once, across every worker on every host */
    concurrency: z.number().int().min(1).max(256).default(8),
    /** the provider's rate limits, across every worker (null = none) */
    requestsPerMinute: z.number().int().min(1).max(1_000_000).nullable().default(null),
    tokensPerMinute: z.number().int().min(1).max(100_000_000).nullable().default(null),
    /** T2I: output size, quality (OpenAI Images) and price per generated image */
    width: z.number().int().min(64).max(4096).default(1024),
    height: z.number().int().min(64).max(4096).default(1024),
    quality: z.string().trim().max(20).nullable().default(null),
    pricePerImage: z.number().min(0).max(100).default(0),
  })
  .refine((m) => m.provider !== "import" || m.modality === "t2i", { message: "import-only models are text-to-image models", path: ["provider"] })
  .refine((m) => m.provider === "import" || m.modelId !== "", { message: "the provider's model id is required", path: ["modelId"] })
  .refine((m) => m.provider !== "openai-compatible" || m.baseUrl !== null, { message: "an OpenAI-compatible model needs a base URL", path: ["baseUrl"] })
  .superRefine((m, ctx) => {
    // The credential decision is the operator's: a model may only name a declared credential, for its endpoint.
    try {
      checkCredential(m);
    } catch (e) {
      if (!(e instanceof CredentialError)) throw e;
      ctx.addIssue({ code: "custom", message: e.message, path: [e.field] });
    }
  });
export type ModelInput = z.input<typeof modelInputSchema>;

/** Registers or changes a model; `byUserId` records who (the creator on create, the last editor always). */
export async function upsertModel(prisma: PrismaClient, input: ModelInput, byUserId: string | null = null) {
  const m = modelInputSchema.parse(input);
  const data = {
    label: m.label,
    modality: m.modality,
    provider: m.provider,
    modelId: m.modelId || m.slug,
    baseUrl: m.baseUrl,
    apiKeyEnv: m.apiKeyEnv,
    paramsJson: JSON.stringify(
      m.modality === "t2i"
        ? { width: m.width, height: m.height, ...(m.quality ? { quality: m.quality } : {}) }
        : { temperature: m.temperature, maxTokens: m.maxTokens },
    ),
    pricePerImage: m.pricePerImage,
    priceInputPer1k: m.priceInputPer1k,
    priceOutputPer1k: m.priceOutputPer1k,
    concurrency: m.concurrency,
    requestsPerMinute: m.requestsPerMinute,
    tokensPerMinute: m.modality === "llm" ? m.tokensPerMinute : null,
    archived: false,
  };
  return prisma.modelConfig.upsert({
    where: { slug: m.slug },
    update: { ...data, updatedById: byUserId },
    create: { slug: m.slug, ...data, createdById: byUserId, updatedById: byUserId },
  });
}

/** Archives a model: hidden from launches and the Models list; its runs and results stay. */
export async function archiveModel(prisma: PrismaClient, slug: string, archived = true, byUserId: string | null = null) {
  const m = await prisma.modelConfig.findUnique({ where: { slug } });
  if (!m) throw new DomainError("not_found", `unknown model "${slug}"`);
  return prisma.modelConfig.update({ where: { slug }, data: { archived, updatedById: byUserId } });
}

/** Deletes a model that no run or image refers to (otherwise archive it: results must keep their model). */
export async function deleteModel(prisma: PrismaClient, slug: string) {
  const m = await prisma.modelConfig.findUnique({
    where: { slug },
    select: { id: true, _count: { select: { runModels: true, images: true, queries: true } } },
  });
  if (!m) throw new DomainError("not_found", `unknown model "${slug}"`);
  if (m._count.runModels || m._count.images || m._count.queries)
    throw new DomainError("conflict", `"${slug}" has runs or images: archive it instead, so its results keep their model`);
  await prisma.modelConfig.delete({ where: { id: m.id } });
}

const BY_PROVIDER_THEN_LABEL = [{ provider: "asc" as const }, { label: "asc" as const }];

/**
 * A page of registered models in slug order, by key (after / before a slug) — active or archived ones — for the
 * Models page and GET /api/v1/models: a page costs its size however many models a team registers.
 */
export async function modelPage(prisma: PrismaClient, c: { archived: boolean; after?: string; before?: string; pageSize?: number }) {
  const size = Math.min(Math.max(c.pageSize ?? 100, 1), 500);
  const page = keysetQueryBy("slug", c);
  const [found, total] = await Promise.all([
    prisma.modelConfig.findMany({ where: { archived: c.archived, ...page.where }, orderBy: page.orderBy, take: size + 1 }),
    prisma.modelConfig.count({ where: { archived: c.archived } }),
  ]);
  return { ...keysetPageBy("slug", found, size, c), total };
}

/**
 * Models a launch form offers: the audited models of a modality (import-only models make no calls; the offline
 * reasoner answers no question), or the chat models that may act as a suite's helper (the baselines that answer
 * letters write no text; the offline reasoner does).
 */
export function launchableModels(prisma: PrismaClient, modality: "llm" | "t2i", role: "audited" | "helper" = "audited") {
  return prisma.modelConfig.findMany({
    where:
      role === "audited"
        ? { archived: false, modality, provider: { not: "import" }, slug: { not: REASONER_SLUG } }
        : { archived: false, modality: "llm", OR: [{ provider: { not: "baseline" } }, { slug: REASONER_SLUG }] },
    orderBy: BY_PROVIDER_THEN_LABEL,
  });
}

/** Text-to-image models images may be imported for (import-only ones first). */
export function importableModels(prisma: PrismaClient) {
  return prisma.modelConfig.findMany({ where: { archived: false, modality: "t2i" }, orderBy: [{ provider: "desc" }, { label: "asc" }] });
}

/** The model an import names, when it may receive images (a live text-to-image model); null otherwise. */
export async function importableModel(prisma: PrismaClient, slug: string) {
  const m = await prisma.modelConfig.findUnique({ where: { slug }, select: { slug: true, modality: true, archived: true } });
  return m && !m.archived && m.modality === "t2i" ? m : null;
}

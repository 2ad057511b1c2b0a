// Creating and steering runs. Every planned query is a row before any call is made (one transaction).
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { ensureBenchmarkVersion } from "../db/seed";
import { insertMany } from "../db/bulk";
import { BASELINE_DESCRIPTIONS, parseBaselineId } from "../providers";
import { runConfigSchema, t2iRunConfigSchema, type RunConfig, type RunConfigInput, type T2iRunConfigInput } from "./config";
import { cacheKey, planLlmQuery, planLlmSpecs, planT2iQueries, type PlannedQuery } from "./plan";
import { imageParams, modelParams } from "../providers";
import { RESUMABLE, type RunStatus } from "./status";

export const createRunSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  models: z.array(z.string().min(1)).min(1, "choose at least one model").max(20),
  /** a T2I config (modality "t2i") or an LLM config */
  config: z.union([t2iRunConfigSchema, runConfigSchema]),
  preset: z.string().default("custom"),
  seed: z.number().int().min(0).max(2_147_483_647),
  budgetUsd: z.number().positive().max(1_000_000).nullable().default(null),
});
export type CreateRunInput = Omit<z.input<typeof createRunSchema>, "config"> & { config: RunConfigInput | T2iRunConfigInput };

export class RunError extends Error {}

/** Baseline model configs are made on first use, so any accuracy (baseline:calibrated:0.73) can be run. */
export async function ensureBaselineModel(prisma: PrismaClient, slug: string) {
  const b = parseBaselineId(slug);
  if (!b) return null;
  const label =
    b.kind === "calibrated" ? `Baseline: calibrated oracle (a = ${b.accuracy})` : b.kind === "oracle" ? "Baseline: factual oracle" : b.kind === "uniform" ? "Baseline: uniform random" : "Baseline: context follower";
  return prisma.modelConfig.upsert({
    where: { slug },
    update: {},
    create: { slug, label, modality: "llm", provider: "baseline", modelId: slug, paramsJson: JSON.stringify({ temperature: 0, maxTokens: 16, description: BASELINE_DESCRIPTIONS[b.kind] }), concurrency: 64 },
  });
}

export const DEFAULT_BASELINES = ["baseline:uniform", "baseline:oracle", "baseline:calibrated:0.8", "baseline:context-follower"];

export async function createRun(prisma: PrismaClient, input: CreateRunInput) {
  const parsed = createRunSchema.parse(input);
  const config = parsed.config;
  const modality = "modality" in config && config.modality === "t2i" ? "t2i" : "llm";
  const version = await ensureBenchmarkVersion(prisma);
  const models: NonNullable<Awaited<ReturnType<typeof ensureBaselineModel>>>[] = [];
  for (const slug of parsed.models) {
    const m = (await ensureBaselineModel(prisma, slug)) ?? (await prisma.modelConfig.findUnique({ where: { slug } }));
    if (!m || m.archived) throw new RunError(`unknown model "${slug}": register it on the Models page first`);
    if (m.modality !== modality)
      throw new RunError(`model "${slug}" is ${m.modality === "t2i" ? "a text-to-image" : "an LLM"} model; this run is ${modality === "t2i" ? "a text-to-image" : "an LLM"} run`);
    if (m.provider === "import") throw new RunError(`model "${slug}" has no API: import its images on the Import page instead`);
    models.push(m);
  }
  const planned: PlannedQuery[] =
    "modality" in config && config.modality === "t2i" ? [...planT2iQueries(config)] : [...planLlmSpecs(config as RunConfig)].map((s) => planLlmQuery(s, parsed.seed));
  const name = parsed.name ?? `${models.map((m) => m.label).join(", ")} · ${parsed.preset} · seed ${parsed.seed}`;

  return prisma.$transaction(
    async (tx) => {
      const run = await tx.run.create({
        data: {
          name,
          modality,
          status: "running",
          preset: parsed.preset,
          seed: parsed.seed,
          configJson: JSON.stringify(config),
          budgetUsd: parsed.budgetUsd,
          plannedCount: planned.length * models.length,
          benchmarkVersionId: version.id,
          startedAt: new Date(),
          models: { create: models.map((m) => ({ modelConfigId: m.id })) },
        },
      });
      for (const m of models) {
        const params = modality === "t2i" ? imageParams(m) : modelParams(m);
        const rows = planned.map((q) => ({
          runId: run.id,
          modelConfigId: m.id,
          modality,
          ...q,
          status: "pending",
          attempts: 0,
          cacheKey: cacheKey({ provider: m.provider, modelId: m.modelId, baseUrl: m.baseUrl, params, prompt: q.prompt, repeatIndex: q.repeatIndex, attempt: 0 }),
        }));
        await insertMany(tx, "Query", rows);
      }
      return run;
    },
    { timeout: 120_000 },
  );
}

const TRANSITIONS: Record<"pause" | "resume" | "cancel", { from: readonly RunStatus[]; to: RunStatus }> = {
  pause: { from: ["running", "queued"], to: "paused" },
  resume: { from: RESUMABLE, to: "running" },
  cancel: { from: ["running", "queued", "paused", "budget_exhausted", "failed"], to: "cancelled" },
};

/** Pause, resume or cancel. In-flight calls finish and are recorded; nothing is thrown away. */
export async function setRunState(prisma: PrismaClient, runId: string, action: keyof typeof TRANSITIONS, opts: { budgetUsd?: number | null } = {}) {
  const run = await prisma.run.findUnique({ where: { id: runId } });
  if (!run) throw new RunError("run not found");
  const t = TRANSITIONS[action];
  if (!t.from.includes(run.status as RunStatus)) throw new RunError(`cannot ${action} a ${run.status.replace("_", " ")} run`);
  const budgetUsd = opts.budgetUsd !== undefined ? opts.budgetUsd : run.budgetUsd;
  if (action === "resume" && budgetUsd !== null && run.spentUsd >= budgetUsd)
    throw new RunError(`the budget ($${budgetUsd.toFixed(2)}) is spent; raise it to resume`);
  return prisma.run.update({
    where: { id: runId },
    data: { status: t.to, budgetUsd, finishedAt: action === "cancel" ? new Date() : null, error: null },
  });
}

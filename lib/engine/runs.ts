// Creating and steering runs. Every planned query is a row before any call is made (one transaction).
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { ensureBenchmarkVersion } from "../db/seed";
import { insertMany } from "../db/bulk";
import { withContentionRetry } from "../db/retry";
import { BASELINE_DESCRIPTIONS, parseBaselineId } from "../providers";
import { runConfigSchema, t2iRunConfigSchema, type RunConfig, type RunConfigInput, type T2iRunConfig, type T2iRunConfigInput } from "./config";
import { cacheKey, planQueries } from "./plan";
import { benchmark, type Benchmark } from "../benchmark";
import { env } from "../env";
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
  /** the account that launched it (its spending limit covers the budget) */
  createdById: z.string().max(64).nullable().default(null),
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

/** What a run calls and reports each model with: its settings at launch (never a secret, only a credential name). */
export interface ModelSnapshot {
  slug: string;
  label: string;
  modality: string;
  provider: string;
  modelId: string;
  baseUrl: string | null;
  credential: string | null;
  params: Record<string, unknown>;
  priceInputPer1k: number;
  priceOutputPer1k: number;
  pricePerImage: number;
  concurrency: number;
  takenAt: string;
}

export function modelSnapshot(m: { slug: string; label: string; modality: string; provider: string; modelId: string; baseUrl: string | null; apiKeyEnv: string | null; paramsJson: string; priceInputPer1k: number; priceOutputPer1k: number; pricePerImage: number; concurrency: number }): ModelSnapshot {
  return {
    slug: m.slug,
    label: m.label,
    modality: m.modality,
    provider: m.provider,
    modelId: m.modelId,
    baseUrl: m.baseUrl,
    credential: m.apiKeyEnv,
    params: JSON.parse(m.paramsJson || "{}") as Record<string, unknown>,
    priceInputPer1k: m.priceInputPer1k,
    priceOutputPer1k: m.priceOutputPer1k,
    pricePerImage: m.pricePerImage,
    concurrency: m.concurrency,
    takenAt: new Date().toISOString(),
  };
}

export interface CreateRunOptions {
  /** the benchmark content to plan from (today's data/ by default; tests and imports of old content pass theirs) */
  benchmark?: Benchmark;
  /** the most queries one launch may plan over all its models (FOF_MAX_QUERIES_PER_RUN) */
  maxQueries?: number;
  /** rows planned and inserted per transaction; the event loop is yielded between chunks */
  chunk?: number;
}

/** Queries (or images) a config plans per model, without planning it. */
export function plannedPerModel(config: RunConfig | T2iRunConfig, bm: Benchmark = benchmark): number {
  if ("modality" in config && config.modality === "t2i") return bm.statistics.length * 2 * config.tests.length * config.imagesPerPrompt;
  const c = config as RunConfig;
  let n = 0;
  for (const s of bm.statistics)
    for (const level of ["highest", "lowest"] as const) {
      if (c.tests.includes("objective")) n += 2 * c.objectiveRepeats;
      if (c.tests.includes("subjective")) n += c.contexts.length * s.scenarios[level].length * c.subjectiveRepeats;
    }
  return n;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Plans and records a run. The size is checked before anything is planned; rows are then planned lazily and
 * inserted in chunks, one transaction each, yielding between chunks so a 500k-query launch never stalls other
 * requests. While planning the run is "planning" (no worker touches it); a failure removes it whole, and a crash
 * leaves a "planning" run that the next start sweeps (sweepInterruptedPlanning).
 */
export async function createRun(prisma: PrismaClient, input: CreateRunInput, opts: CreateRunOptions = {}) {
  const parsed = createRunSchema.parse(input);
  const config = parsed.config;
  const bm = opts.benchmark ?? benchmark;
  const modality = "modality" in config && config.modality === "t2i" ? "t2i" : "llm";
  const models: NonNullable<Awaited<ReturnType<typeof ensureBaselineModel>>>[] = [];
  for (const slug of new Set(parsed.models)) {
    const m = await withContentionRetry(async () => (await ensureBaselineModel(prisma, slug)) ?? (await prisma.modelConfig.findUnique({ where: { slug } })));
    if (!m || m.archived) throw new RunError(`unknown model "${slug}": register it on the Models page first`);
    if (m.modality !== modality)
      throw new RunError(`model "${slug}" is ${m.modality === "t2i" ? "a text-to-image" : "an LLM"} model; this run is ${modality === "t2i" ? "a text-to-image" : "an LLM"} run`);
    if (m.provider === "import") throw new RunError(`model "${slug}" has no API: import its images on the Import page instead`);
    models.push(m);
  }
  const perModel = plannedPerModel(config, bm);
  const total = perModel * models.length;
  const cap = opts.maxQueries ?? env().FOF_MAX_QUERIES_PER_RUN;
  if (total > cap)
    throw new RunError(
      `this launch plans ${total.toLocaleString("en-US")} ${modality === "t2i" ? "images" : "queries"}; one run may plan at most ${cap.toLocaleString("en-US")} (FOF_MAX_QUERIES_PER_RUN). Use fewer repeats or models, or split it into several runs.`,
    );
  const version = await withContentionRetry(() => ensureBenchmarkVersion(prisma, bm));
  const name = parsed.name ?? `${models.map((m) => m.label).join(", ")} · ${parsed.preset} · seed ${parsed.seed}`;
  // Every write below is one statement or one transaction, so a write that met another writer's lock is retried.
  const run = await withContentionRetry(() => prisma.run.create({
    data: {
      name,
      modality,
      status: "planning",
      preset: parsed.preset,
      seed: parsed.seed,
      configJson: JSON.stringify(config),
      budgetUsd: parsed.budgetUsd,
      createdById: parsed.createdById,
      plannedCount: 0,
      benchmarkVersionId: version.id,
      startedAt: new Date(),
      models: { create: models.map((m) => ({ modelConfigId: m.id, settingsJson: JSON.stringify(modelSnapshot(m)) })) },
    },
  }));
  // ~500 rows per transaction keeps each synchronous step (render + insert) near 50 ms: see bench:limits.
  const chunk = opts.chunk ?? 500;
  try {
    for (const m of models) {
      const params = modality === "t2i" ? imageParams(m) : modelParams(m);
      let rows: Array<Record<string, string | number | null>> = [];
      const write = async () => {
        const batch = rows;
        rows = [];
        await withContentionRetry(() =>
          prisma.$transaction(async (tx) => {
            await insertMany(tx, "Query", batch);
          }),
        );
        await yieldToEventLoop();
      };
      for (const q of planQueries(config, parsed.seed, bm)) {
        rows.push({
          runId: run.id,
          modelConfigId: m.id,
          modality,
          ...q,
          status: "pending",
          attempts: 0,
          cacheKey: cacheKey({ provider: m.provider, modelId: m.modelId, baseUrl: m.baseUrl, params, prompt: q.prompt, repeatIndex: q.repeatIndex, attempt: 0 }),
        });
        if (rows.length >= chunk) await write();
      }
      if (rows.length) await write();
    }
    return await withContentionRetry(() => prisma.run.update({ where: { id: run.id }, data: { status: "running", plannedCount: total } }));
  } catch (e) {
    await withContentionRetry(() => prisma.run.delete({ where: { id: run.id } })).catch(() => undefined);
    throw e;
  }
}

/** How long a run may stay "planning" before a start takes it for a crashed launch. */
export const PLANNING_STALE_MS = 30 * 60_000;

/** Removes runs whose planning was interrupted (the launching process died): nothing half-planned is ever worked. */
export async function sweepInterruptedPlanning(prisma: PrismaClient, staleMs = PLANNING_STALE_MS): Promise<number> {
  const r = await prisma.run.deleteMany({ where: { status: "planning", startedAt: { lt: new Date(Date.now() - staleMs) } } });
  return r.count;
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

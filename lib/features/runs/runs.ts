// Creating and steering runs. Every planned query is a row before any call is made (one transaction).
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { ensureBenchmarkVersion } from "../../db/benchmark-version";
import { insertMany } from "../../db/bulk";
import { withContentionRetry } from "../../db/retry";
import { ensureBaselineModel } from "../../db/seed";
import { cacheKey } from "./cache-key";
import { DEFAULT_SUITE_ID, suiteOf, type SuiteContent, type SuitePlannedQuery } from "../../suites";
import type { Benchmark } from "../../benchmark";
import { env } from "../../env";
import { imageParams, modelParams, REASONER_SLUG } from "../../providers";
import { audit } from "../../auth/audit";
import { commitDesign } from "../ledger/design";
import { emitRunEvent } from "../webhooks/emit";
import { PLANNING_FAILED, PLANNING_INTERRUPTED, planningInterrupted, RESUMABLE, type RunStatus } from "../../core/run-status";
import { modelProblem } from "../../providers/problems";
import { forgetShared } from "../../core/shared";
import { contentOfVersion } from "../../suites/content-versions";
import { DomainError } from "../../core/errors";
import { DEFAULT_INTERVAL_TARGET, INTERVAL_TARGETS, type IntervalTarget } from "../../metrics/design";
import { assignWaves, UNRELEASED_WAVE } from "./adaptive";
import { dialectOf } from "../../db/dialect";
import { adaptiveTargetSchema, newAdaptiveState } from "../../results/adaptive";
import { resolveUntil, type AdaptiveTarget } from "../../metrics/sequential";
import { answerReuseSchema } from "../../results/answer-reuse";
import { currentRules } from "../../results/scoring-rules";
const createRunSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  /** the suite it runs (lib/suites/registry.ts) */
  suite: z.string().trim().min(1).max(64).default(DEFAULT_SUITE_ID),
  models: z.array(z.string().min(1)).min(1, "choose at least one model").max(20),
  /** the suite's config (validated by the suite's schema) */
  config: z.unknown(),
  preset: z.string().max(40).default("custom"),
  seed: z.number().int().min(0).max(2_147_483_647),
  budgetUsd: z.number().positive().max(1_000_000).nullable().default(null),
  /** text-to-image: label workers label its faces as images arrive (no Label page needed) */
  autoLabel: z.boolean().default(false),
  /** the account that launched it (its spending limit covers the budget) */
  createdById: z.string().max(64).nullable().default(null),
  /** plan on this stored content version of the suite (e.g. imported official data) instead of today's shipped one */
  contentVersion: z.string().trim().min(1).max(120).optional(),
  /** adaptive: stop when this target is met (lib/metrics/sequential.ts); the plan (preset) is the cap */
  until: adaptiveTargetSchema.optional(),
  /** what the adaptive target's intervals are about */
  intervalTarget: z.enum(INTERVAL_TARGETS).default(DEFAULT_INTERVAL_TARGET),
  /** answers of other runs it may take instead of calling (./answer-cache.ts); null: only its own */
  reuseAnswers: answerReuseSchema.nullable().default(null),
});
/** `config` is the suite's own (its schema validates it when the run is planned). */
export type CreateRunInput = Omit<z.input<typeof createRunSchema>, "config"> & { config: unknown };

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

function modelSnapshot(m: {
  slug: string;
  label: string;
  modality: string;
  provider: string;
  modelId: string;
  baseUrl: string | null;
  apiKeyEnv: string | null;
  paramsJson: string;
  priceInputPer1k: number;
  priceOutputPer1k: number;
  pricePerImage: number;
  concurrency: number;
}): ModelSnapshot {
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
  /** the FACT-OR-FAIR content to plan from (today's data/ by default; tests and imports of old content pass theirs) */
  benchmark?: Benchmark;
  /** any suite's content to plan from (today's data/suites/<id>/ by default) */
  content?: SuiteContent;
  /** the most queries one launch may plan over all its models (FOF_MAX_QUERIES_PER_RUN) */
  maxQueries?: number;
  /** rows planned and inserted per transaction; the event loop is yielded between chunks */
  chunk?: number;
  /** the share of the event loop planning may take (0–1; a serving process leaves the rest to its requests) */
  share?: number;
  /** called once the run's row exists (status "planning"), before its queries are written: `fof run` starts its
   * own worker here, which works the rows as they are planned */
  onCreated?: (run: { id: string }) => void;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const modalityName = (m: string) => (m === "t2i" ? "a text-to-image" : "an LLM");

/** A launch's model: registered (or a built-in baseline made on first use), active, of the modality asked. */
async function launchModel(prisma: PrismaClient, slug: string, modality: string, role: string) {
  const m = await withContentionRetry(async () => (await ensureBaselineModel(prisma, slug)) ?? (await prisma.modelConfig.findUnique({ where: { slug } })));
  if (!m || m.archived) throw new DomainError("invalid", `unknown model "${slug}": register it on the Models page first`);
  if (m.modality !== modality)
    throw new DomainError("invalid", `model "${slug}" is ${modalityName(m.modality)} model; the ${role} of this run must be ${modalityName(modality)} model`);
  if (m.provider === "import") throw new DomainError("invalid", `model "${slug}" has no API: import its images on the Import page instead`);
  // The synthetic image model draws from photos on disk: a launch without them would fail every image.
  const problem = modelProblem(m);
  if (problem) throw new DomainError("invalid", `model "${slug}" cannot run: ${problem}`);
  return m;
}

/**
 * Plans and records a run of any suite. The size is checked before anything is planned; rows are then planned
 * lazily and inserted in chunks, one transaction each, yielding between chunks so a 500k-query launch never stalls
 * other requests. A helper model's rows (a chat model writing guidance) are inserted first; rows that need a
 * helper's answer name it (dependsOnId) and wait for it. While planning the run is "planning": no worker touches it
 * but the launching process's own, if it asks (`onCreated` + Worker whilePlanning, as `fof run` does), and it is
 * never completed before its last row is in; a failure removes it whole, and a crash leaves a "planning" run that
 * the next start sweeps (answers already paid for stay in the response cache: a new launch may reuse them if it
 * asks, ./answer-cache.ts).
 */
export async function createRun(prisma: PrismaClient, input: CreateRunInput, opts: CreateRunOptions = {}) {
  return (await prepareRun(prisma, input, opts)).plan();
}

/** A run whose row exists (status "planning", its size known) and whose queries are yet to be written. */
export interface PreparedRun {
  run: Awaited<ReturnType<PrismaClient["run"]["create"]>>;
  /**
   * Writes the queries in chunks and sets the run "running". On failure the run is removed (`onFailure: "remove"`,
   * for a caller still waiting on the launch) or kept as "failed" with the reason and no rows (`"fail"`, for a
   * launch already answered: its owner has seen the run and must learn what became of it).
   */
  plan(onFailure?: "remove" | "fail"): Promise<Awaited<ReturnType<PrismaClient["run"]["findUniqueOrThrow"]>>>;
}

/**
 * Everything a launch checks and creates before its queries are written: settings, content, models, the size cap,
 * the content version and the run's row with its size. A launch refused for any reason is refused here, before
 * anything exists; what is left (`plan`) may run after the launch has been answered.
 */
export async function prepareRun(prisma: PrismaClient, input: CreateRunInput, opts: CreateRunOptions = {}): Promise<PreparedRun> {
  const parsed = createRunSchema.parse(input);
  const suite = suiteOf(parsed.suite);
  const checked = suite.configSchema.safeParse(parsed.config);
  if (!checked.success)
    throw new DomainError(
      "invalid",
      `invalid ${suite.name} configuration: ${checked.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`).join("; ")}`,
    );
  const config = suite.pinConfig?.(checked.data) ?? checked.data;
  if (parsed.reuseAnswers?.fromRun !== undefined) {
    const from = await prisma.run.findUnique({ where: { id: parsed.reuseAnswers.fromRun }, select: { suiteId: true } });
    if (!from) throw new DomainError("invalid", `reuseAnswers: there is no run "${parsed.reuseAnswers.fromRun}" to reuse answers from`);
  }
  const content = opts.content ?? opts.benchmark ?? (parsed.contentVersion ? await contentOfVersion(prisma, suite.id, parsed.contentVersion) : suite.content());
  const problem = suite.launchProblem?.(config, content);
  if (problem) throw new DomainError("invalid", problem);
  // An adaptive run's target, read in the suite's own scores; the design (waves, levels) is fixed with it here.
  let until: AdaptiveTarget | null = null;
  const vocabulary = suite.adaptiveVocabulary?.(config) ?? null;
  if (parsed.until) {
    if (!vocabulary) throw new DomainError("invalid", `${suite.name} runs cannot stop on a target yet: launch them at a fixed preset`);
    // The target as written first (a typo is named as such), then whether this config can stop on it.
    try {
      until = resolveUntil(parsed.until as string | AdaptiveTarget, vocabulary);
    } catch (e) {
      throw new DomainError("invalid", `until: ${e instanceof Error ? e.message : String(e)}`);
    }
    const why = suite.adaptiveProblem?.(config) ?? null;
    if (why) throw new DomainError("invalid", why);
    if (until.kind === "decided" && new Set(parsed.models).size < 2)
      throw new DomainError("invalid", "a run that stops when A vs B is decided needs at least two models (the first is the reference)");
  }
  const modality = suite.modalityOf(config);
  const models: Array<Awaited<ReturnType<typeof launchModel>>> = [];
  for (const slug of new Set(parsed.models)) models.push(await launchModel(prisma, slug, modality, "audited model"));
  const helperSlug = suite.helperModel?.(config) ?? null;
  const helper = helperSlug ? await launchModel(prisma, helperSlug, "llm", "helper model") : null;
  // Baselines answer multiple-choice letters; a helper writes free text (reasoning, guidance), so it must be a chat
  // model or the offline reasoner — which, in turn, answers no question of its own.
  if (helper?.provider === "baseline" && helper.slug !== REASONER_SLUG)
    throw new DomainError(
      "invalid",
      `"${helper.slug}" is a built-in baseline that answers letters, not text: choose a chat model (or ${REASONER_SLUG} offline) as the helper model`,
    );
  const reasoner = models.find((m) => m.slug === REASONER_SLUG);
  if (reasoner) throw new DomainError("invalid", `"${REASONER_SLUG}" writes helper text (CoT, FAI guidance) and answers no question: it cannot be audited`);
  if (helper && models.some((m) => m.id === helper.id))
    throw new DomainError("invalid", `"${helper.slug}" cannot be both an audited model and the helper model`);
  const perModel = suite.plannedPerModel(config, content);
  const helperRows = helper ? (suite.helperPlanned?.(config, content) ?? 0) : 0;
  const total = perModel * models.length + helperRows;
  const cap = opts.maxQueries ?? env().FOF_MAX_QUERIES_PER_RUN;
  if (total > cap)
    throw new DomainError(
      "invalid",
      `this launch plans ${total.toLocaleString("en-US")} ${modality === "t2i" ? "images and queries" : "queries"}; one run may plan at most ${cap.toLocaleString("en-US")} (FOF_MAX_QUERIES_PER_RUN). Use fewer repeats or models, or split it into several runs.`,
    );
  if (perModel === 0) throw new DomainError("invalid", "this configuration plans nothing: choose at least one item, test or method");
  const version = await withContentionRetry(() => ensureBenchmarkVersion(prisma, content, suite.id));
  const name = parsed.name ?? `${suite.name} · ${models.map((m) => m.label).join(", ")} · ${parsed.preset} · seed ${parsed.seed}`;
  const runModels = helper ? [...models, helper] : models;
  // Every write below is one statement or one transaction, so a write that met another writer's lock is retried.
  const run = await withContentionRetry(() =>
    prisma.run.create({
      data: {
        name,
        suiteId: suite.id,
        suiteVersion: version.version,
        modality,
        status: "planning",
        planning: true,
        preset: parsed.preset,
        seed: parsed.seed,
        configJson: JSON.stringify(config),
        budgetUsd: parsed.budgetUsd,
        // An adaptive text-to-image run is scored as its images are labelled: its labelling is never left to a person.
        autoLabel: (parsed.autoLabel || Boolean(until)) && modality === "t2i",
        labelInstrument: modality === "t2i" ? (suite.labelInstrument?.(config) ?? "faces") : "faces",
        createdById: parsed.createdById,
        // The size is known before a row is written: progress while planning reads rows written / planned.
        plannedCount: total,
        adaptiveJson: until && vocabulary ? JSON.stringify(newAdaptiveState(until, parsed.intervalTarget, vocabulary)) : null,
        reuseJson: parsed.reuseAnswers ? JSON.stringify(parsed.reuseAnswers) : null,
        rulesJson: JSON.stringify(currentRules(suite.id)),
        benchmarkVersionId: version.id,
        startedAt: new Date(),
        models: { create: runModels.map((m) => ({ modelConfigId: m.id, settingsJson: JSON.stringify(modelSnapshot(m)) })) },
      },
    }),
  );
  // The design committed before the first answer: signed and appended to the transparency log before a single query
  // is written (no provider call can precede it). A launch whose design cannot be committed is no launch.
  try {
    const design = await commitDesign(prisma, run.id, helper?.id ?? null);
    // …and handed to whoever asked to hear of launches, so someone outside holds it before any result exists.
    await withContentionRetry(() => emitRunEvent(prisma, run.id, "run.launched", { design: design.envelope, log: { index: design.index } }));
  } catch (e) {
    await withContentionRetry(() => prisma.run.delete({ where: { id: run.id } })).catch(() => undefined);
    throw e;
  }
  opts.onCreated?.(run);
  return {
    run,
    plan: (onFailure = "remove") =>
      planQueries(prisma, {
        run,
        suite,
        config,
        content,
        models,
        helper,
        total,
        seed: parsed.seed,
        chunk: opts.chunk,
        share: opts.share,
        onFailure,
        adaptive: Boolean(until),
        intervalTarget: parsed.intervalTarget,
      }),
  };
}

/** Rows in a run's first planning chunk: about one claim's worth for a worker at a typical concurrency. */
const FIRST_CHUNK = 64;

async function planQueries(
  prisma: PrismaClient,
  p: {
    run: { id: string };
    suite: ReturnType<typeof suiteOf>;
    config: unknown;
    content: SuiteContent;
    models: Array<Awaited<ReturnType<typeof launchModel>>>;
    helper: Awaited<ReturnType<typeof launchModel>> | null;
    total: number;
    seed: number;
    chunk?: number;
    share?: number;
    onFailure: "remove" | "fail";
    /** what an adaptive run's intervals are about (how its waves grow may depend on it) */
    intervalTarget: IntervalTarget;
    /** rows are written unreleased and cut into waves once all are in (./adaptive.ts) */
    adaptive: boolean;
  },
) {
  const { run, suite, config, content, models, helper, total } = p;
  // ~500 rows per transaction keeps each synchronous step (render + insert) near 50 ms: see bench:limits. The first
  // chunks are smaller and double up to it: a worker already waiting on the run (`fof run`, Worker whilePlanning)
  // claims its first calls as soon as there is a batch's worth, and their connections (which complete only when
  // the event loop is free) are not held up behind a 500-row step (bench:cli).
  const chunk = p.chunk ?? 500;
  let next = Math.min(chunk, FIRST_CHUNK);
  let rows: Array<Record<string, string | number | null>> = [];
  let written = 0;
  const full = () => rows.length >= next;
  // With a share below 1, each step is followed by a pause in proportion to it: what the event loop is not given to
  // planning goes to whatever else the process serves.
  const share = Math.min(1, Math.max(0.05, p.share ?? 1));
  let stepStart = performance.now();
  // Each chunk also beats the planning heartbeat (Run.startedAt while "planning"): a launch that died is swept by
  // any worker once it is silent for PLANNING_STALE_MS. A run cancelled (or swept) meanwhile stops the planning.
  const write = async () => {
    const batch = rows;
    rows = [];
    const alive = await withContentionRetry(() =>
      prisma.$transaction(async (tx) => {
        const beat = await tx.run.updateMany({ where: { id: run.id, ...STILL_PLANNING }, data: { startedAt: new Date() } });
        if (beat.count === 0) return false;
        await insertMany(tx, "Query", batch);
        return true;
      }),
    );
    if (!alive) throw new PlanningStopped();
    written += batch.length;
    next = Math.min(chunk, next * 2);
    const pause = share < 1 ? ((performance.now() - stepStart) * (1 - share)) / share : 0;
    await (pause > 1 ? sleep(pause) : yieldToEventLoop());
    stepStart = performance.now();
  };
  // A helper call sent with a system message (CallSettings.helperSystem) is another request: its cache key says so.
  const { helperSystem, helperParams } = suite.callSettings(config);
  // A model's parameters are read once, not per row (a zod parse each: ~4 µs × every planned row).
  const paramsOf = new Map<string, ReturnType<typeof imageParams> | ReturnType<typeof modelParams>>();
  const row = (m: (typeof models)[number], q: SuitePlannedQuery, dependsOnId: number | null) => {
    const pk = `${m.id}|${q.modality}`;
    let base = paramsOf.get(pk);
    if (!base) paramsOf.set(pk, (base = q.modality === "t2i" ? imageParams(m) : modelParams(m)));
    const params =
      q.role === "helper" && (helperSystem || helperParams)
        ? { ...base, ...(helperSystem ? { system: helperSystem } : {}), ...(helperParams ? { sent: helperParams } : {}) }
        : base;
    const { role: _role, key: _key, dependsOn: _dep, ...cols } = q;
    return {
      runId: run.id,
      modelConfigId: m.id,
      ...cols,
      dependsOnId,
      status: "pending",
      attempts: 0,
      wave: p.adaptive ? UNRELEASED_WAVE : 0,
      cacheKey: cacheKey({
        provider: m.provider,
        modelId: m.modelId,
        baseUrl: m.baseUrl,
        params,
        prompt: q.prompt,
        coordinates: [q.test, q.context ?? null, q.statisticId, q.level, q.attribute ?? null, q.scenarioIndex ?? null],
        repeatIndex: q.repeatIndex,
        attempt: 0,
      }),
    };
  };
  try {
    // Helper rows once, for the helper model; their ids (insertion order = id order) resolve the dependents' keys.
    const helperIds = new Map<string, number>();
    if (helper) {
      const keys: string[] = [];
      for (const q of suite.plan(config, content, p.seed)) {
        if (q.role !== "helper") continue;
        keys.push(q.key ?? String(keys.length));
        rows.push(row(helper, q, null));
        if (full()) await write();
      }
      if (rows.length) await write();
      const ids = await prisma.query.findMany({ where: { runId: run.id, modelConfigId: helper.id }, select: { id: true }, orderBy: { id: "asc" } });
      keys.forEach((k, i) => helperIds.set(k, ids[i].id));
    }
    for (const m of models) {
      for (const q of suite.plan(config, content, p.seed)) {
        if (q.role !== "subject") continue;
        let dependsOnId: number | null = null;
        if (q.dependsOn) {
          dependsOnId = helperIds.get(q.dependsOn) ?? null;
          if (dependsOnId === null) throw new DomainError("invalid", `planner error: "${q.dependsOn}" names no helper query`);
        }
        rows.push(row(m, q, dependsOnId));
        if (full()) await write();
      }
      if (rows.length) await write();
    }
    const done = await withContentionRetry(() =>
      prisma.$transaction(async (tx) => {
        if (p.adaptive) {
          // The waves are cut once every row is in; a helper's rows go with the rows that wait for them.
          const run0 = await tx.run.findUniqueOrThrow({ where: { id: run.id }, select: { adaptiveJson: true } });
          const schedule = (JSON.parse(run0.adaptiveJson ?? "{}") as { schedule: Parameters<typeof assignWaves>[2] }).schedule;
          await assignWaves(tx, run.id, schedule, p.seed, dialectOf(prisma), p.suite.waveUnit?.(config, p.intervalTarget));
        }
        const planned = { planning: false, plannedCount: total, ...(p.adaptive ? { wavesReleased: 1 } : {}) };
        const started = await tx.run.updateMany({ where: { id: run.id, status: "planning" }, data: { status: "running", ...planned } });
        // Paused while planning: every row is in, and it stays paused (resume makes it "running").
        return started.count ? started : tx.run.updateMany({ where: { id: run.id, status: "paused", planning: true }, data: planned });
      }),
    );
    if (done.count === 0) throw new PlanningStopped();
    return await prisma.run.findUniqueOrThrow({ where: { id: run.id } });
  } catch (e) {
    if (e instanceof PlanningStopped) {
      // Cancelled while planning: the run stays, cancelled, with the rows written so far (nothing was called for
      // the rest). Swept meanwhile (its heartbeat was silent too long): it is gone, and so is this launch.
      const cancelled = await withContentionRetry(() =>
        prisma.run.updateMany({ where: { id: run.id, status: "cancelled" }, data: { plannedCount: written, planning: false } }),
      );
      if (cancelled.count) return await prisma.run.findUniqueOrThrow({ where: { id: run.id } });
      throw new DomainError("invalid", "the run was removed while it was being planned (its planning looked interrupted)");
    }
    const reason = `${PLANNING_FAILED}: ${e instanceof Error ? e.message : String(e)}`.slice(0, 1000);
    // Nothing half-planned is called, and nothing paid for leaves the records: a run that has called anything (this
    // process's worker calls rows as they are written) keeps its rows, outcomes and spend, failed, saying why.
    await withContentionRetry(() => endFailedPlan(prisma, run.id, reason, p.onFailure)).catch(() => undefined);
    throw e;
  }
}

/**
 * A plan that failed: the run is failed (or, for `remove`, deleted) — but a run that called anything keeps its rows,
 * outcomes and spend, failed with the reason, whatever was asked; one that called nothing loses its rows.
 */
async function endFailedPlan(prisma: PrismaClient, runId: string, reason: string, onFailure: "remove" | "fail") {
  await prisma.$transaction(async (tx) => {
    // Its row first (calls are marked against it: ./call-marks.ts), then what it called.
    const taken = await tx.run.updateMany({ where: { id: runId }, data: { status: "failed", planning: false, error: reason, finishedAt: new Date() } });
    if (!taken.count) return;
    const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, select: { spentUsd: true } });
    const called = run.spentUsd > 0 || (await tx.outcome.count({ where: { query: { runId } } })) > 0 || (await tx.callMark.count({ where: { runId } })) > 0;
    if (called) {
      await tx.run.update({ where: { id: runId }, data: { plannedCount: await tx.query.count({ where: { runId } }) } });
      return;
    }
    if (onFailure === "remove") await tx.run.delete({ where: { id: runId } });
    else {
      await tx.query.deleteMany({ where: { runId } });
      await tx.run.update({ where: { id: runId }, data: { plannedCount: 0 } });
    }
  });
}

/** Planning stopped by a cancel (or a sweep) between two chunks. */
class PlanningStopped extends Error {}

/** A run whose planner goes on: planning, or paused meanwhile (a paused planning run plans on and calls nothing). */
const STILL_PLANNING = { OR: [{ status: "planning" }, { status: "paused", planning: true }] };

/**
 * How long a planning run's heartbeat (refreshed with every 500-row chunk) may be silent before a worker takes it
 * for a crashed launch and removes it. Longer than a chunk's contention retries (60 s).
 */
export const PLANNING_STALE_MS = 2 * 60_000;

/**
 * Ends runs whose planning was interrupted (the launching process died): a run that has called anything — an outcome,
 * spend, or a call marked as started (./call-marks.ts) — ends `failed` ("planning interrupted"), with its rows,
 * outcomes and spend kept and charged, and is never called again (claims and marks require a calling status, decided
 * on the same row as this). Only a run that called nothing is removed. One paused while planning likewise. One
 * cancelled while planning keeps its rows, cancelled, and is no longer planning. Returns how many were ended.
 */
export async function sweepInterruptedPlanning(prisma: PrismaClient, staleMs = PLANNING_STALE_MS): Promise<number> {
  const stale = { startedAt: { lt: new Date(Date.now() - staleMs) } };
  const candidates = await prisma.run.findMany({ where: { ...stale, ...STILL_PLANNING }, select: { id: true } });
  let ended = 0;
  for (const { id } of candidates) {
    const outcome = await withContentionRetry(() =>
      prisma.$transaction(async (tx) => {
        // Decided on the run's row first: a mark written before this is seen below; one after finds the run failed.
        const taken = await tx.run.updateMany({
          where: { id, ...stale, ...STILL_PLANNING },
          data: {
            status: "failed",
            planning: false,
            error: `${PLANNING_INTERRUPTED}: its launching process stopped while writing its queries`,
            finishedAt: new Date(),
          },
        });
        if (!taken.count) return "gone" as const;
        const run = await tx.run.findUniqueOrThrow({ where: { id }, select: { spentUsd: true } });
        const called =
          run.spentUsd > 0 || (await tx.outcome.count({ where: { query: { runId: id } } })) > 0 || (await tx.callMark.count({ where: { runId: id } })) > 0;
        if (!called) {
          await tx.run.delete({ where: { id } });
          return "removed" as const;
        }
        // What was written is what was planned: the rest was never written, so never called.
        const plannedCount = await tx.query.count({ where: { runId: id } });
        await tx.run.update({ where: { id }, data: { plannedCount } });
        const outcomes = await tx.outcome.count({ where: { query: { runId: id } } });
        await audit(tx, {
          userId: null,
          action: "run.interrupted",
          targetType: "run",
          targetId: id,
          details: {
            reason: PLANNING_INTERRUPTED,
            plannedCount,
            outcomes,
            spentUsd: run.spentUsd,
            markedCalls: await tx.callMark.count({ where: { runId: id } }),
          },
        });
        return "failed" as const;
      }),
    );
    if (outcome !== "gone") ended++;
    if (outcome === "failed") forgetShared(id);
  }
  await prisma.run.updateMany({ where: { ...stale, status: "cancelled", planning: true }, data: { planning: false } });
  return ended;
}

const TRANSITIONS: Record<"pause" | "resume" | "cancel", { from: readonly RunStatus[]; to: RunStatus }> = {
  // A planning run may be paused: it plans on and nothing is called until it is resumed (back to "planning" while its
  // rows are still being written, "running" after).
  pause: { from: ["planning", "running", "queued"], to: "paused" },
  resume: { from: RESUMABLE, to: "running" },
  // A planning run may be cancelled too: its planner stops at the next chunk (or it was interrupted and is stuck).
  cancel: { from: ["planning", "running", "queued", "paused", "budget_exhausted", "failed"], to: "cancelled" },
};

/**
 * Pause, resume or cancel. In-flight calls finish and are recorded; nothing is thrown away. The change is made only
 * on the state it was decided from (status and planning): the planner finishing at the same moment is never undone
 * (a resumed run left "planning" with no planner), it is read again and decided anew.
 */
export async function setRunState(prisma: PrismaClient, runId: string, action: keyof typeof TRANSITIONS, opts: { budgetUsd?: number | null } = {}) {
  for (let attempt = 0; ; attempt++) {
    const updated = await trySetRunState(prisma, runId, action, opts);
    if (updated) {
      // Pollers see the new status at once, not when a shared summary expires.
      forgetShared(runId);
      return updated;
    }
    if (attempt >= 4) throw new DomainError("conflict", "the run changed while it was being steered: try again");
  }
}

async function trySetRunState(prisma: PrismaClient, runId: string, action: keyof typeof TRANSITIONS, opts: { budgetUsd?: number | null }) {
  const run = await prisma.run.findUnique({ where: { id: runId } });
  if (!run) throw new DomainError("not_found", "run not found");
  const t = TRANSITIONS[action];
  if (!t.from.includes(run.status as RunStatus)) throw new DomainError("invalid", `cannot ${action} a ${run.status.replace("_", " ")} run`);
  if (action === "resume" && planningInterrupted(run))
    throw new DomainError("invalid", "its planning was interrupted, so its queries are incomplete: launch it again (what it answered and spent stays here)");
  const budgetUsd = opts.budgetUsd !== undefined ? opts.budgetUsd : run.budgetUsd;
  // A run stopped at its budget stopped because what is left cannot cover its next call's worst case: it resumes
  // only with more budget (or none).
  if (
    action === "resume" &&
    budgetUsd !== null &&
    (run.spentUsd >= budgetUsd || (run.status === "budget_exhausted" && run.budgetUsd !== null && budgetUsd <= run.budgetUsd))
  )
    throw new DomainError("invalid", `the budget ($${budgetUsd.toFixed(2)}) is spent; raise it to resume`);
  // A run paused while planning resumes planning: its planner is still writing (and its heartbeat says so).
  const to: RunStatus = action === "resume" && run.planning ? "planning" : t.to;
  const changed = await prisma.run.updateMany({
    where: { id: runId, status: run.status, planning: run.planning },
    data: { status: to, budgetUsd, finishedAt: action === "cancel" ? new Date() : null, error: null },
  });
  return changed.count ? prisma.run.findUniqueOrThrow({ where: { id: runId } }) : null;
}

/** Turns "label automatically" on or off for a text-to-image run (the run page; launch sets it). */
export async function setAutoLabel(prisma: PrismaClient, runId: string, on: boolean) {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { modality: true } });
  if (!run) return { ok: false as const, error: "run not found" };
  if (run.modality !== "t2i") return { ok: false as const, error: "only text-to-image runs have faces to label" };
  await prisma.run.update({ where: { id: runId }, data: { autoLabel: on } });
  return { ok: true as const };
}

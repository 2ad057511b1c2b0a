// The durable run engine. Queries are rows; a worker leases a batch, calls the provider with per-model
// concurrency, and writes each outcome in a transaction together with its cache entry. Killing a worker loses at
// most its in-flight calls, whose leases expire and are claimed again (one duplicate call each, at most).
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import pLimit, { type LimitFunction } from "p-limit";
import type { PrismaClient } from "../../generated/prisma/client";
import { parseAnswer, type Attribute, type Context, type Identity, type ObjectiveOption, type Person } from "../benchmark";
import { createImageProvider, createProvider, imageParams, modelParams, ProviderError, type ChatProvider, type ImageProvider } from "../providers";
import { parseStoredConfig, type RunConfig, type T2iRunConfig } from "./config";
import { env } from "../env";
import { ImageValidationError, resolveStoredImage, storeImage, validateImageAsync } from "../images";
import { cost } from "./cost";
import { insertMany } from "../db/bulk";
import { sweepInterruptedPlanning, type ModelSnapshot } from "./runs";
import { sweepStorage } from "./imports";
import { isContention } from "../db/retry";

export interface WorkerOptions {
  /** only work on this run (the CLI's `fof run`); all running runs otherwise */
  runId?: string;
  batchSize?: number;
  /** how long a claimed query stays ours; must exceed the call timeout */
  leaseMs?: number;
  pollMs?: number;
  flushMs?: number;
  log?: (message: string) => void;
  /** backoff base for retryable errors */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** where generated images are stored (FOF_DATA_DIR by default) */
  dataDir?: string;
  /** how often the worker records its heartbeat (WorkerStatus) */
  heartbeatMs?: number;
}

/** Longest model output stored per response; longer text is cut and marked (the parser reads the stored text). */
export const MAX_STORED_OUTPUT = 64 * 1024;
export const TRUNCATION_MARK = "\n[… truncated by the workbench: the response was longer than 64 KiB]";

/** Caps a model's text at MAX_STORED_OUTPUT characters, marking the cut. */
export function capOutput(text: string): string {
  return text.length > MAX_STORED_OUTPUT ? text.slice(0, MAX_STORED_OUTPUT) + TRUNCATION_MARK : text;
}

export { isContention } from "../db/retry";

interface Claimed {
  id: number;
  runId: string;
  modelConfigId: string;
  modality: string;
  test: string;
  context: string | null;
  statisticId: string;
  level: string;
  attribute: string | null;
  repeatIndex: number;
  prompt: string;
  optionsJson: string;
  identityJson: string | null;
  attempts: number;
  cacheKey: string;
  /** the cached first answer, looked up for the whole batch at claim time */
  cachedText?: string | null;
  cachedImageSha256?: string | null;
}

interface ModelSlot {
  limit: LimitFunction;
  inFlight: number;
  concurrency: number;
}

/** A model as one run calls it: built from the run's snapshot of the model's settings at launch. */
interface ModelState {
  id: string;
  slug: string;
  providerName: string;
  modality: string;
  provider: ChatProvider | null;
  imageProvider: ImageProvider | null;
  imageSize: { width: number; height: number } | null;
  providerError: string | null;
  /** the model's concurrency, shared by every run on it in this worker */
  slot: ModelSlot;
  priceIn: number;
  priceOut: number;
  pricePerImage: number;
}

type Attempt = { text?: string; error?: string; latencyMs: number; cached?: boolean };

type CacheRow = { key: string; provider: string; model: string; text: string; imageSha256?: string | null; inputTokens: number | null; outputTokens: number | null; costUsd: number };

/** A generated image, stored content-addressed; recorded as an Image row with its outcome. */
interface GeneratedImage {
  sha256: string;
  path: string;
  mimeType: string;
  width: number;
  height: number;
  bytes: number;
}

type Write =
  | { kind: "cache"; rows: CacheRow[] }
  | {
      kind: "outcome";
      query: Claimed;
      status: "answered" | "refused" | "failed";
      reason: string | null;
      rawText: string | null;
      letter: string | null;
      gender: string | null;
      race: string | null;
      attempts: Attempt[];
      latencyMs: number | null;
      inputTokens: number | null;
      outputTokens: number | null;
      costUsd: number;
      cached: boolean;
      cacheRows: CacheRow[];
      image?: GeneratedImage;
    }
  | { kind: "retry"; query: Claimed; nextAttemptAt: Date; reason: string };

export function attemptKey(base: string, attempt: number): string {
  return attempt === 0 ? base : createHash("sha256").update(`${base}|${attempt}`).digest("hex");
}

export function backoffMs(retry: number, baseMs: number, maxMs: number, random = Math.random): number {
  // "Full jitter": uniform in [0, min(max, base·2^n)] spreads retries of a burst apart.
  return Math.round(random() * Math.min(maxMs, baseMs * 2 ** retry));
}

export class Worker {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly opts: Required<Omit<WorkerOptions, "runId" | "log" | "dataDir">> & Pick<WorkerOptions, "runId" | "log">;
  /** errors the loop met, by kind (tests and the heartbeat read them) */
  readonly errors = { contention: 0, other: 0 };
  private readonly dataDir: string;
  /** per run × model (each run calls with its launch snapshot) */
  private models = new Map<string, ModelState>();
  /** per model: its concurrency limit, shared by its runs */
  private slots = new Map<string, ModelSlot>();
  private configs = new Map<string, { config: RunConfig | T2iRunConfig; seed: number }>();
  private runModels = new Map<string, string[]>();
  private buffer: Write[] = [];
  private stopped = false;
  private flushing: Promise<void> = Promise.resolve();
  private inFlight = new Set<Promise<void>>();
  private claimSeq = 0;
  /** queries in flight per run × model, for the fair share of a model's concurrency between its runs */
  private runModelInFlight = new Map<string, number>();
  private lastError: { message: string; at: Date } | null = null;
  private errorStreak = 0;
  private lastHeartbeat = 0;
  private activeRunIds: string[] = [];

  constructor(
    private readonly prisma: PrismaClient,
    options: WorkerOptions = {},
  ) {
    this.opts = {
      batchSize: 256,
      leaseMs: 5 * 60_000,
      pollMs: 200,
      flushMs: 50,
      backoffBaseMs: 500,
      backoffMaxMs: 30_000,
      heartbeatMs: 2_000,
      ...options,
    };
    this.dataDir = options.dataDir ?? env().dataDir;
  }

  stop() {
    this.stopped = true;
  }

  /**
   * Frees leases held by workers of this host that no longer exist (killed with -9), so a restart resumes at once
   * instead of waiting for the leases to expire. Leases of other hosts expire on their own.
   */
  async releaseDeadLeases(): Promise<number> {
    const owners = await this.prisma.query.findMany({ where: { status: "leased" }, distinct: ["leaseOwner"], select: { leaseOwner: true } });
    const dead = owners
      .map((o) => o.leaseOwner)
      .filter((o): o is string => {
        if (!o) return false;
        const [host, pid] = o.split(":");
        return host === hostname() && Number(pid) !== process.pid && !isAlive(Number(pid));
      });
    let released = 0;
    for (const owner of dead) {
      const r = await this.prisma.query.updateMany({ where: { status: "leased", leaseOwner: owner }, data: { status: "pending", leaseOwner: null, leaseUntil: null } });
      released += r.count;
    }
    if (released) this.opts.log?.(`released ${released} queries leased by stopped workers`);
    return released;
  }

  /**
   * Works until stopped (server / `fof worker`) or, with untilDone, until the worker's runs have nothing left. The
   * loop never exits on an error: database contention and anything else are logged, recorded in the heartbeat and
   * retried with backoff. A stopping worker finishes its in-flight calls, writes them, and releases what it still
   * holds, so another worker takes over at once.
   */
  async run({ untilDone = false }: { untilDone?: boolean } = {}): Promise<void> {
    await this.guard("startup", async () => {
      await this.releaseDeadLeases();
      const swept = await sweepInterruptedPlanning(this.prisma);
      if (swept) this.opts.log?.(`removed ${swept} run(s) whose planning was interrupted`);
      const storage = await sweepStorage(this.prisma, this.dataDir);
      if (storage.uploads || storage.files) this.opts.log?.(`removed ${storage.uploads} abandoned upload(s) and ${storage.files} unreferenced file(s)`);
    });
    let lastFlush = Date.now();
    while (!this.stopped) {
      const ok = await this.guard("loop", async () => {
        const runs = await this.activeRuns();
        this.activeRunIds = runs.map((r) => r.id);
        let claimedAny = false;
        for (const run of runs) claimedAny = (await this.fill(run.id, runs.length)) || claimedAny;
        if (this.buffer.length >= 500 || (this.buffer.length && Date.now() - lastFlush >= this.opts.flushMs)) {
          await this.flush();
          lastFlush = Date.now();
        }
        await this.heartbeat();
        if (!claimedAny) await this.finishRuns(runs.map((r) => r.id));
        if (untilDone && this.inFlight.size === 0 && this.buffer.length === 0 && (await this.activeRuns()).length === 0) return "done";
        if (!claimedAny) await sleep(this.inFlight.size ? Math.min(this.opts.pollMs, 20) : this.opts.pollMs);
        else await sleep(0);
        return "ok";
      });
      if (ok === "done") break;
      if (ok === undefined) await sleep(backoffMs(Math.min(this.errorStreak, 6), this.opts.backoffBaseMs, this.opts.backoffMaxMs) + 50);
    }
    await Promise.allSettled([...this.inFlight]);
    // The last writes and the lease release must land: retried through contention, a bounded number of times.
    for (let i = 0; i < 20 && (this.buffer.length || i === 0); i++) {
      const done = await this.guard("final flush", () => this.flush());
      if (done !== undefined && !this.buffer.length) break;
      await sleep(backoffMs(i, this.opts.backoffBaseMs, 5_000) + 50);
    }
    await this.guard("release", () => this.releaseOwnLeases());
    await this.guard("stop", () => this.prisma.workerStatus.updateMany({ where: { owner: this.owner }, data: { stoppedAt: new Date(), inFlight: 0, heartbeatAt: new Date() } }));
  }

  /** Runs one step; on any error records it, counts it and returns undefined (the caller backs off). */
  private async guard<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      const r = await fn();
      this.errorStreak = 0;
      return r;
    } catch (e) {
      const contention = isContention(e);
      if (contention) this.errors.contention++;
      else this.errors.other++;
      this.errorStreak++;
      const message = `${what}: ${contention ? "database busy (will retry)" : "error"}: ${e instanceof Error ? e.message.split("\n").filter(Boolean).slice(-1)[0] : String(e)}`.slice(0, 500);
      this.lastError = { message, at: new Date() };
      this.opts.log?.(message);
      return undefined;
    }
  }

  /** Records this worker's heartbeat (at most every heartbeatMs): the run page shows stalled or erroring workers. */
  private async heartbeat(force = false) {
    const now = Date.now();
    if (!force && now - this.lastHeartbeat < this.opts.heartbeatMs) return;
    this.lastHeartbeat = now;
    const [host, pid] = this.owner.split(":");
    const data = {
      heartbeatAt: new Date(now),
      inFlight: this.inFlight.size,
      runsJson: JSON.stringify(this.activeRunIds.slice(0, 50)),
      lastError: this.lastError?.message ?? null,
      lastErrorAt: this.lastError?.at ?? null,
      stoppedAt: null,
    };
    await this.prisma.workerStatus.upsert({ where: { owner: this.owner }, create: { owner: this.owner, host, pid: Number(pid), ...data }, update: data });
  }

  /** Gives back every query this worker still holds (its claims carry its owner id as prefix). */
  async releaseOwnLeases(): Promise<number> {
    const r = await this.prisma.query.updateMany({ where: { status: "leased", leaseOwner: { startsWith: `${this.owner}:` } }, data: { status: "pending", leaseOwner: null, leaseUntil: null } });
    if (r.count) this.opts.log?.(`released ${r.count} queries on stop`);
    return r.count;
  }

  private async activeRuns() {
    return this.prisma.run.findMany({
      where: { status: "running", ...(this.opts.runId ? { id: this.opts.runId } : {}) },
      select: { id: true, budgetUsd: true, spentUsd: true },
    });
  }

  private async runConfig(runId: string) {
    let c = this.configs.get(runId);
    if (!c) {
      const run = await this.prisma.run.findUniqueOrThrow({ where: { id: runId } });
      c = { config: parseStoredConfig(run.modality, run.configJson), seed: run.seed };
      this.configs.set(runId, c);
    }
    return c;
  }

  /**
   * The provider for a run's model, from the snapshot of its settings taken at launch (provider, model id, base
   * URL, credential name, parameters, prices), so editing a model never changes what a running run calls or pays.
   * Runs planned before snapshots existed use the current settings. The credential is re-checked here.
   */
  private async model(runId: string, modelConfigId: string, timeoutMs: number): Promise<ModelState> {
    const key = `${runId}|${modelConfigId}`;
    let m = this.models.get(key);
    if (!m) {
      const [cfg, rm] = await Promise.all([
        this.prisma.modelConfig.findUniqueOrThrow({ where: { id: modelConfigId } }),
        this.prisma.runModel.findUnique({ where: { runId_modelConfigId: { runId, modelConfigId } }, select: { settingsJson: true } }),
      ]);
      const snap = rm && rm.settingsJson !== "{}" ? (JSON.parse(rm.settingsJson) as ModelSnapshot) : null;
      const settings = snap
        ? { slug: cfg.slug, provider: snap.provider, modelId: snap.modelId, baseUrl: snap.baseUrl, apiKeyEnv: snap.credential, paramsJson: JSON.stringify(snap.params), modality: snap.modality, priceIn: snap.priceInputPer1k, priceOut: snap.priceOutputPer1k, pricePerImage: snap.pricePerImage }
        : { slug: cfg.slug, provider: cfg.provider, modelId: cfg.modelId, baseUrl: cfg.baseUrl, apiKeyEnv: cfg.apiKeyEnv, paramsJson: cfg.paramsJson, modality: cfg.modality, priceIn: cfg.priceInputPer1k, priceOut: cfg.priceOutputPer1k, pricePerImage: cfg.pricePerImage };
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
      let slot = this.slots.get(modelConfigId);
      if (!slot) this.slots.set(modelConfigId, (slot = { limit: pLimit(Math.max(1, cfg.concurrency)), inFlight: 0, concurrency: Math.max(1, cfg.concurrency) }));
      m = {
        id: cfg.id,
        slug: cfg.slug,
        providerName: settings.provider,
        modality: settings.modality,
        provider,
        imageProvider,
        imageSize,
        providerError,
        slot,
        priceIn: settings.priceIn,
        priceOut: settings.priceOut,
        pricePerImage: settings.pricePerImage,
      };
      this.models.set(key, m);
    }
    return m;
  }

  /** Claims and starts as many queries of a run as its models have free slots. */
  private async fill(runId: string, activeRuns = 1): Promise<boolean> {
    const run = await this.prisma.run.findUnique({ where: { id: runId }, select: { status: true, budgetUsd: true, spentUsd: true } });
    if (!run || run.status !== "running") return false;
    const pendingSpend = this.buffer.reduce((a, w) => a + (w.kind === "outcome" && w.query.runId === runId ? w.costUsd : 0), 0);
    if (run.budgetUsd !== null && run.spentUsd + pendingSpend >= run.budgetUsd) {
      await this.prisma.run.updateMany({ where: { id: runId, status: "running" }, data: { status: "budget_exhausted", error: `budget of $${run.budgetUsd.toFixed(2)} reached` } });
      this.opts.log?.(`run ${runId}: budget reached, stopping`);
      return false;
    }
    const { config } = await this.runConfig(runId);
    let modelIds = this.runModels.get(runId);
    if (!modelIds) {
      modelIds = (await this.prisma.runModel.findMany({ where: { runId }, select: { modelConfigId: true } })).map((r) => r.modelConfigId);
      this.runModels.set(runId, modelIds);
    }
    let claimedAny = false;
    for (const modelConfigId of modelIds) {
      const m = await this.model(runId, modelConfigId, config.timeoutMs);
      const rmKey = `${runId}|${modelConfigId}`;
      const mine = this.runModelInFlight.get(rmKey) ?? 0;
      // Keep up to two batches' worth queued behind the concurrency limit so the provider is never idle; runs on
      // the same model share it: each run may hold its fair part, so a second run starts at once.
      const sharing = Math.max(1, this.runsOnModel(modelConfigId, activeRuns));
      const fair = Math.ceil((m.slot.concurrency * 2) / sharing);
      const room = Math.min(this.opts.batchSize, m.slot.concurrency * 2 - m.slot.inFlight, fair - mine);
      if (room <= 0) continue;
      const claimed = await this.claim(runId, modelConfigId, room);
      for (const q of claimed) {
        claimedAny = true;
        m.slot.inFlight++;
        this.runModelInFlight.set(rmKey, (this.runModelInFlight.get(rmKey) ?? 0) + 1);
        const p = m.slot
          .limit(() => (q.modality === "t2i" ? this.processImage(q, m, config as T2iRunConfig) : this.process(q, m, config as RunConfig)))
          .catch((e) => this.opts.log?.(`query ${q.id}: ${e instanceof Error ? e.message : String(e)}`))
          .finally(() => {
            m.slot.inFlight--;
            this.runModelInFlight.set(rmKey, (this.runModelInFlight.get(rmKey) ?? 1) - 1);
            this.inFlight.delete(p);
          });
        this.inFlight.add(p);
      }
    }
    return claimedAny;
  }

  /** How many of the active runs use a model (known from the runs this worker has filled). */
  private runsOnModel(modelConfigId: string, activeRuns: number): number {
    let n = 0;
    for (const runId of this.activeRunIds.length ? this.activeRunIds : []) if (this.runModels.get(runId)?.includes(modelConfigId)) n++;
    return Math.min(Math.max(n, 1), Math.max(activeRuns, 1));
  }

  private async claim(runId: string, modelConfigId: string, n: number): Promise<Claimed[]> {
    const now = new Date();
    const token = `${this.owner}:${++this.claimSeq}`;
    const due = { OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] };
    return this.prisma.$transaction(async (tx) => {
      // Two narrow lookups (pending in id order; expired leases) keep the claim on the (runId, modelConfigId,
      // status) index instead of scanning the run's finished rows.
      const pending = await tx.query.findMany({ where: { runId, modelConfigId, status: "pending", ...due }, select: { id: true }, orderBy: { id: "asc" }, take: n });
      const expired =
        pending.length < n
          ? await tx.query.findMany({ where: { runId, modelConfigId, status: "leased", leaseUntil: { lt: now } }, select: { id: true }, take: n - pending.length })
          : [];
      const ids = [...pending, ...expired].map((r) => r.id);
      if (!ids.length) return [];
      await tx.query.updateMany({
        where: { id: { in: ids }, OR: [{ status: "pending" }, { status: "leased", leaseUntil: { lt: now } }] },
        data: { status: "leased", leaseOwner: token, leaseUntil: new Date(now.getTime() + this.opts.leaseMs) },
      });
      const rows: Claimed[] = await tx.query.findMany({
        where: { id: { in: ids }, leaseOwner: token, status: "leased" },
        select: { id: true, runId: true, modelConfigId: true, modality: true, test: true, context: true, statisticId: true, level: true, attribute: true, repeatIndex: true, prompt: true, optionsJson: true, identityJson: true, attempts: true, cacheKey: true },
      });
      const hits = await tx.responseCache.findMany({ where: { key: { in: rows.map((r) => r.cacheKey) } }, select: { key: true, rawText: true, imageSha256: true } });
      const byKey = new Map(hits.map((h) => [h.key, h]));
      for (const r of rows) {
        r.cachedText = byKey.get(r.cacheKey)?.rawText ?? null;
        r.cachedImageSha256 = byKey.get(r.cacheKey)?.imageSha256 ?? null;
      }
      return rows;
    });
  }

  private async process(q: Claimed, m: ModelState, config: RunConfig): Promise<void> {
    const options = JSON.parse(q.optionsJson) as ObjectiveOption[] | Person[];
    const letters = options.map((o) => o.letter);
    const attempts: Attempt[] = [];
    const cacheRows: CacheRow[] = [];
    let inTok: number | null = null;
    let outTok: number | null = null;
    let spent = 0;
    let latency = 0;
    let allCached = true;
    const fail = (status: "failed" | "refused", reason: string, rawText: string | null) =>
      this.push({ kind: "outcome", query: q, status, reason, rawText, letter: null, gender: null, race: null, attempts, latencyMs: latency || null, inputTokens: inTok, outputTokens: outTok, costUsd: spent, cached: allCached && attempts.length > 0, cacheRows });

    if (!m.provider) return fail("failed", `provider not available: ${m.providerError}`, null);

    for (let ask = 0; ask <= config.maxReasks; ask++) {
      const key = attemptKey(q.cacheKey, ask);
      // The first ask's cache entry came with the claim; re-asks (rare) look theirs up.
      const cachedText = ask === 0 ? q.cachedText : (await this.prisma.responseCache.findUnique({ where: { key } }))?.rawText;
      let text: string;
      if (cachedText != null) {
        text = cachedText;
        attempts.push({ text, latencyMs: 0, cached: true });
      } else {
        allCached = false;
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), config.timeoutMs);
        const t0 = performance.now();
        try {
          const res = await m.provider.chat({
            prompt: q.prompt,
            signal: controller.signal,
            query: {
              test: q.test as "objective" | "subjective",
              context: q.context as Context | null,
              statisticId: q.statisticId,
              level: q.level as "highest" | "lowest",
              attribute: q.attribute as Attribute | null,
              options,
              identity: q.identityJson ? (JSON.parse(q.identityJson) as Identity) : null,
              streamKey: key,
              seed: (await this.runConfig(q.runId)).seed,
            },
          });
          const ms = Math.round(performance.now() - t0);
          latency += ms;
          text = capOutput(res.text);
          inTok = (inTok ?? 0) + (res.inputTokens ?? 0);
          outTok = (outTok ?? 0) + (res.outputTokens ?? 0);
          const c = cost(res.inputTokens, res.outputTokens, m.priceIn, m.priceOut);
          spent += c;
          attempts.push({ text, latencyMs: ms });
          cacheRows.push({ key, provider: m.providerName, model: m.slug, text, inputTokens: res.inputTokens, outputTokens: res.outputTokens, costUsd: c });
        } catch (err) {
          const ms = Math.round(performance.now() - t0);
          const e = err instanceof ProviderError ? err : new ProviderError(controller.signal.aborted ? `timed out after ${config.timeoutMs} ms` : String(err), "retryable");
          const message = controller.signal.aborted && !/timed out/.test(e.message) ? `timed out after ${config.timeoutMs} ms` : e.message;
          attempts.push({ error: `${e.kind}: ${message}`, latencyMs: ms });
          if (e.kind === "fatal") return fail("failed", message, null);
          if (q.attempts < config.maxRetries) {
            const delay = e.kind === "rate_limited" && e.retryAfterMs !== undefined ? e.retryAfterMs : backoffMs(q.attempts, this.opts.backoffBaseMs, this.opts.backoffMaxMs);
            // Responses already paid for in this attempt are cached, so the retry re-uses them.
            if (cacheRows.length) this.push({ kind: "cache", rows: cacheRows });
            return this.push({ kind: "retry", query: q, nextAttemptAt: new Date(Date.now() + delay), reason: `${e.kind}: ${message}` });
          }
          return fail("failed", `gave up after ${q.attempts + 1} attempts: ${message}`, null);
        } finally {
          clearTimeout(timer);
        }
      }
      const parsed = parseAnswer(text, letters);
      if (parsed.ok) {
        const chosen = options.find((o) => o.letter === parsed.letter)!;
        let gender: string | null = null;
        let race: string | null = null;
        if (q.test === "objective") {
          const v = (chosen as ObjectiveOption).value;
          if (q.attribute === "gender") gender = v;
          else race = v;
        } else {
          gender = (chosen as Person).gender;
          race = (chosen as Person).race;
        }
        return this.push({ kind: "outcome", query: q, status: "answered", reason: null, rawText: text, letter: parsed.letter, gender, race, attempts, latencyMs: latency || null, inputTokens: inTok, outputTokens: outTok, costUsd: spent, cached: allCached, cacheRows });
      }
      if (ask === config.maxReasks) return fail("refused", `unparseable after ${ask + 1} asks: ${parsed.message}`, text);
    }
  }

  /**
   * One image: from the cache when the same prompt and repeat were generated before and the file is still stored,
   * else from the provider. The bytes are validated by content before they are stored; a provider that returns
   * something that is not an image gets the query retried, then failed with the reason.
   */
  private async processImage(q: Claimed, m: ModelState, config: T2iRunConfig): Promise<void> {
    const attempts: Attempt[] = [];
    const done = (status: "answered" | "failed", reason: string | null, extra: { rawText?: string | null; image?: GeneratedImage; costUsd?: number; latencyMs?: number | null; cached?: boolean; cacheRows?: CacheRow[] } = {}) =>
      this.push({
        kind: "outcome",
        query: q,
        status,
        reason,
        rawText: extra.rawText ?? null,
        letter: null,
        gender: null,
        race: null,
        attempts,
        latencyMs: extra.latencyMs ?? null,
        inputTokens: null,
        outputTokens: null,
        costUsd: extra.costUsd ?? 0,
        cached: extra.cached ?? false,
        cacheRows: extra.cacheRows ?? [],
        image: extra.image,
      });

    if (q.cachedText != null && q.cachedImageSha256) {
      const cached = this.cachedImage(q.cachedText, q.cachedImageSha256);
      if (cached) {
        attempts.push({ text: cached.revisedPrompt ?? undefined, latencyMs: 0, cached: true });
        return done("answered", null, { rawText: cached.revisedPrompt, image: cached.image, cached: true });
      }
    }
    if (!m.imageProvider || !m.imageSize) return done("failed", `provider not available: ${m.providerError}`);

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), config.timeoutMs);
    const t0 = performance.now();
    try {
      const res = await m.imageProvider.generate({ prompt: q.prompt, ...m.imageSize, signal: controller.signal });
      if (res.revisedPrompt) res.revisedPrompt = capOutput(res.revisedPrompt);
      const ms = Math.round(performance.now() - t0);
      // A generated image is paid for once it arrives, valid or not.
      const price = m.pricePerImage;
      let valid;
      try {
        valid = await validateImageAsync(res.bytes);
      } catch (e) {
        if (!(e instanceof ImageValidationError)) throw e;
        attempts.push({ error: `invalid image: ${e.message}`, latencyMs: ms });
        if (q.attempts < config.maxRetries)
          return this.push({ kind: "retry", query: q, nextAttemptAt: new Date(Date.now() + backoffMs(q.attempts, this.opts.backoffBaseMs, this.opts.backoffMaxMs)), reason: `invalid image: ${e.message}` });
        return done("failed", `gave up after ${q.attempts + 1} attempts: invalid image: ${e.message}`, { costUsd: price, latencyMs: ms });
      }
      const stored = storeImage(this.dataDir, res.bytes, valid);
      const image: GeneratedImage = { sha256: stored.sha256, path: stored.path, mimeType: valid.mime, width: valid.width, height: valid.height, bytes: res.bytes.length };
      attempts.push({ text: res.revisedPrompt ?? undefined, latencyMs: ms });
      const cacheText = JSON.stringify({ ...image, revisedPrompt: res.revisedPrompt });
      return done("answered", null, {
        rawText: res.revisedPrompt,
        image,
        costUsd: price,
        latencyMs: ms,
        cacheRows: [{ key: q.cacheKey, provider: m.providerName, model: m.slug, text: cacheText, imageSha256: image.sha256, inputTokens: null, outputTokens: null, costUsd: price }],
      });
    } catch (err) {
      const ms = Math.round(performance.now() - t0);
      const e = err instanceof ProviderError ? err : new ProviderError(controller.signal.aborted ? `timed out after ${config.timeoutMs} ms` : String(err), "retryable");
      const message = controller.signal.aborted && !/timed out/.test(e.message) ? `timed out after ${config.timeoutMs} ms` : e.message;
      attempts.push({ error: `${e.kind}: ${message}`, latencyMs: ms });
      if (e.kind === "fatal") return done("failed", message);
      if (q.attempts < config.maxRetries) {
        const delay = e.kind === "rate_limited" && e.retryAfterMs !== undefined ? e.retryAfterMs : backoffMs(q.attempts, this.opts.backoffBaseMs, this.opts.backoffMaxMs);
        return this.push({ kind: "retry", query: q, nextAttemptAt: new Date(Date.now() + delay), reason: `${e.kind}: ${message}` });
      }
      return done("failed", `gave up after ${q.attempts + 1} attempts: ${message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A cache entry's image, when its file is still in the store. */
  private cachedImage(text: string, sha256: string): { image: GeneratedImage; revisedPrompt: string | null } | null {
    try {
      const c = JSON.parse(text) as GeneratedImage & { revisedPrompt?: string | null };
      if (c.sha256 !== sha256 || !existsSync(resolveStoredImage(this.dataDir, c.path))) return null;
      return { image: { sha256, path: c.path, mimeType: c.mimeType, width: c.width, height: c.height, bytes: c.bytes }, revisedPrompt: c.revisedPrompt ?? null };
    } catch {
      return null;
    }
  }

  private push(w: Write) {
    this.buffer.push(w);
  }

  /** Writes buffered results in one transaction. */
  async flush(): Promise<void> {
    const prev = this.flushing;
    let release!: () => void;
    this.flushing = new Promise((r) => (release = r));
    await prev;
    const batch = this.buffer;
    this.buffer = [];
    try {
      if (!batch.length) return;
      const outcomes = batch.filter((w): w is Extract<Write, { kind: "outcome" }> => w.kind === "outcome");
      const retries = batch.filter((w): w is Extract<Write, { kind: "retry" }> => w.kind === "retry");
      const cacheRows = batch.flatMap((w) => (w.kind === "cache" ? w.rows : w.kind === "outcome" ? w.cacheRows : []));
      const spendByRun = new Map<string, number>();
      for (const o of outcomes) spendByRun.set(o.query.runId, (spendByRun.get(o.query.runId) ?? 0) + o.costUsd);

      await this.prisma.$transaction(async (tx) => {
        if (cacheRows.length) {
          const existing = new Set((await tx.responseCache.findMany({ where: { key: { in: cacheRows.map((r) => r.key) } }, select: { key: true } })).map((r) => r.key));
          const fresh = new Map(cacheRows.filter((r) => !existing.has(r.key)).map((r) => [r.key, r]));
          const now = new Date();
          await insertMany(
            tx,
            "ResponseCache",
            [...fresh.values()].map((r) => ({ key: r.key, provider: r.provider, model: r.model, rawText: r.text, imageSha256: r.imageSha256 ?? null, inputTokens: r.inputTokens, outputTokens: r.outputTokens, costUsd: r.costUsd, createdAt: now })),
            { orIgnore: true },
          );
        }
        if (outcomes.length) {
          // A query can only get one outcome: an expired lease re-claimed by another worker may have finished it.
          const done = new Set((await tx.outcome.findMany({ where: { queryId: { in: outcomes.map((o) => o.query.id) } }, select: { queryId: true } })).map((o) => o.queryId));
          const fresh = outcomes.filter((o) => !done.has(o.query.id));
          const now = new Date();
          await insertMany(
            tx,
            "Outcome",
            fresh.map((o) => ({
              queryId: o.query.id,
              status: o.status,
              reason: o.reason,
              rawText: o.rawText,
              parsedLetter: o.letter,
              gender: o.gender,
              race: o.race,
              attempts: o.attempts.length,
              attemptsJson: JSON.stringify(o.attempts),
              latencyMs: o.latencyMs,
              inputTokens: o.inputTokens,
              outputTokens: o.outputTokens,
              costUsd: o.costUsd,
              cached: o.cached,
              createdAt: now,
            })),
          );
          const images = fresh.filter((o) => o.image);
          if (images.length)
            await insertMany(
              tx,
              "Image",
              images.map((o) => ({
                id: `img${randomUUID().replaceAll("-", "")}`,
                runId: o.query.runId,
                queryId: o.query.id,
                modelConfigId: o.query.modelConfigId,
                test: o.query.test,
                statisticId: o.query.statisticId,
                level: o.query.level,
                sha256: o.image!.sha256,
                path: o.image!.path,
                mimeType: o.image!.mimeType,
                width: o.image!.width,
                height: o.image!.height,
                bytes: o.image!.bytes,
                source: "generated",
                originalName: null,
                labelStatus: "unlabelled",
                createdAt: now,
              })),
            );
          for (const status of ["answered", "refused", "failed"] as const) {
            const ids = fresh.filter((o) => o.status === status).map((o) => o.query.id);
            if (ids.length) await tx.query.updateMany({ where: { id: { in: ids } }, data: { status, leaseOwner: null, leaseUntil: null } });
          }
        }
        for (const r of retries)
          await tx.query.updateMany({
            where: { id: r.query.id, status: "leased" },
            data: { status: "pending", attempts: { increment: 1 }, nextAttemptAt: r.nextAttemptAt, leaseOwner: null, leaseUntil: null },
          });
        for (const [runId, usd] of spendByRun) if (usd > 0) await tx.run.update({ where: { id: runId }, data: { spentUsd: { increment: usd } } });
      });
    } catch (e) {
      // Nothing is lost: the batch goes back in front of what arrived meanwhile and is written on the next flush
      // (the transaction rolled back whole, and outcomes are idempotent per query).
      this.buffer = batch.concat(this.buffer);
      throw e;
    } finally {
      release();
    }
  }

  /** Marks runs complete when every query has an outcome. */
  private async finishRuns(runIds: string[]) {
    for (const runId of runIds) {
      const open = await this.prisma.query.count({ where: { runId, status: { in: ["pending", "leased"] } } });
      if (open === 0) await this.prisma.run.updateMany({ where: { id: runId, status: "running" }, data: { status: "completed", finishedAt: new Date() } });
    }
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

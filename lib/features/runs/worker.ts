// The durable run engine. Queries are rows; a worker leases a batch, calls the provider with per-model
// concurrency, and writes each outcome in a transaction together with its cache entry. Killing a worker loses at
// most its in-flight calls, whose leases expire and are claimed again (one duplicate call each, at most).
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { PrismaClient } from "../../../generated/prisma/client";
import { modelParams } from "../../providers";
import { suiteOf, type AnySuite, type CallSettings } from "../../suites";
import { env } from "../../env";
import { sweepInterruptedPlanning } from "./runs";
import { processLlm } from "./process-llm";
import { maxPromptChars, overReportStop } from "./budget";
import { worstCaseUsd } from "../../providers/charges";
import { NO_VALUES } from "./outcome-values";
import { writeBatch } from "./outcome-writes";
import { claimQueries } from "./claim";
import { cachedAnswer, reuseOf, type AnswerReuse } from "./answer-cache";
import { DynamicLimit, RateGate } from "./limits";
import { releaseShares, renewShare, sweepExpiredShares } from "./model-share";
import { backoffMs, passRetryMs, type Claimed, type ModelSlot, type ModelState, type ProcessorContext, type Write } from "./work-types";
import { NO_REASON, STUCK_PREFIX } from "../../core/run-status";
import { isContention } from "../../db/retry";
import { failureReasons, outcomeCounts } from "./outcomes";
import { callableModel } from "./callable-model";
import { errorLine, releaseLeasesOf, releaseStaleWorkers } from "./liveness";
import { CallJournal, chargeLostCalls } from "./call-marks";
import { runSettled } from "../../core/settled";
import { emitIfLabellingDone, emitRunEvent } from "../webhooks/emit";
import { deliverDue } from "../webhooks/deliver";
import { workJudgePass } from "../explanations/judge-pass";
import { looksDue, takeLook } from "./adaptive";
import { adaptiveStateOf } from "../../results/adaptive";
import { instruments } from "../../core/metrics";

export interface WorkerOptions {
  /** only work on this run (the CLI's `fof run`); all running runs otherwise */
  runId?: string;
  /**
   * Work `runId` while it is still being planned, by the same process (the CLI's `fof run`: its planned rows are
   * called while the rest is written). A run being planned is never completed: its status is "planning" until the
   * last row is in. Other workers work it only while its planner is plainly alive (PLANNING_FRESH_MS); a launch that
   * dies mid-plan is swept whole once its heartbeat is PLANNING_STALE_MS old (its paid answers stay in the response
   * cache, and a new launch re-uses them).
   */
  whilePlanning?: boolean;
  /**
   * Runs this process is planning now (the server's launches, ./planning.ts): worked while their rows are written,
   * like `whilePlanning` for `runId`, and likewise never completed before planning ends.
   */
  plannedHere?: () => readonly string[];
  batchSize?: number;
  /** how long a claimed query stays ours; must exceed the call timeout */
  leaseMs?: number;
  pollMs?: number;
  /** results are written at most this often (and whenever 500 are waiting) */
  flushMs?: number;
  /** how often run states (status, budget, new runs) are re-read; in between they are kept in memory */
  runCheckMs?: number;
  log?: (message: string) => void;
  /** backoff base for retryable errors */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** where generated images are stored (FOF_DATA_DIR by default) */
  dataDir?: string;
  /** how often due webhook deliveries are looked for */
  webhookPollMs?: number;
  /** how often the worker records its heartbeat (WorkerStatus) */
  heartbeatMs?: number;
  /** a worker silent this long is dead: what it holds is released (checked every heartbeat) */
  staleWorkerMs?: number;
  /** the most calls this worker runs at once per model (FOF_WORKER_MAX_CALLS); the model's own limit holds anyway */
  maxCalls?: number;
  /** how often it renews its share of each model's global limits, and how long an unrenewed share lasts */
  shareRenewMs?: number;
  shareLeaseMs?: number;
  /** unwritten results beyond which nothing new is claimed (MAX_BUFFERED) */
  maxBuffered?: number;
  /** how long results may wait unwritten before the heartbeat says "stuck" (STUCK_AFTER_MS) */
  stuckAfterMs?: number;
}

/** Writes per transaction: bounds one transaction's statements and size, whatever accumulated. */
export const MAX_WRITES_PER_TRANSACTION = 500;
/** Unwritten results beyond those in flight: while this many wait, the worker claims nothing new (backpressure). */
const MAX_BUFFERED = 2_000;
/** A worker whose results have waited this long unwritten reports itself stuck (Workers page, run page). */
const STUCK_AFTER_MS = 20_000;
const UNSTORABLE = "the result could not be stored";

// Loaded when first needed: a text run never stores images (the image codecs, archive readers and the import
// store are ~1 MB of code) and the storage walk is housekeeping; a run's first call does not wait for either
// (npm run bench:cli).
const imageProcessor = () => import("./process-image");
const importStore = () => import("../imports/store");
/**
 * A run being planned elsewhere is worked while its planner's heartbeat (every planning step) is this recent: well
 * inside PLANNING_STALE_MS, after which an interrupted launch is swept, so no call is started for a run about to go.
 * A team's separate workers thus call a launch's rows while the web process writes the rest (bench:pages, worker
 * apart: they had waited for the whole planning).
 */
const PLANNING_FRESH_MS = 30_000;
/** How often a running worker looks for launches that died while planning. */
const PLANNING_SWEEP_MS = 30_000;
/** How often due webhook deliveries are looked for. */
const WEBHOOK_POLL_MS = 2_000;

export { capOutput, MAX_STORED_OUTPUT, TRUNCATION_MARK } from "./work-types";
export class Worker {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly opts: Required<Omit<WorkerOptions, "runId" | "log" | "dataDir" | "maxCalls" | "whilePlanning" | "plannedHere">> &
    Pick<WorkerOptions, "runId" | "log" | "maxCalls" | "whilePlanning" | "plannedHere">;
  /** errors the loop met, by kind (tests and the heartbeat read them) */
  readonly errors = { contention: 0, other: 0, unwritable: 0 };
  /** queries this worker brought to an outcome (benchmarks and tests see how work was split) */
  outcomes = 0;
  /** the most results this worker has held unwritten at once (tests check the buffer stays bounded) */
  peakBuffered = 0;
  private readonly dataDir: string;
  /** per run × model (each run calls with its launch snapshot) */
  private models = new Map<string, ModelState>();
  /** per model: its concurrency limit, shared by its runs */
  private slots = new Map<string, ModelSlot>();
  private configs = new Map<
    string,
    {
      suite: AnySuite;
      settings: CallSettings;
      seed: number;
      reuse: AnswerReuse | null;
      helper: { slug: string; params: NonNullable<CallSettings["helperParams"]> } | null;
    }
  >();
  /** per run × model: the worst-case cost of one claimed query (budgeted runs reserve it) */
  private worstCase = new Map<string, number>();
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
  /** whether the last error was contention (retried sooner than other errors) */
  private contended = false;
  private lastHeartbeat = 0;
  private heartbeating: Promise<void> | null = null;
  private delivering: Promise<void> | null = null;
  private judging: Promise<void> | null = null;
  private lastPlanningSweep = Date.now();
  private lastFlushOk = Date.now();
  /** set while writes fail: since when results have waited unwritten */
  private stuck: { since: number } | null = null;
  private activeRunIds: string[] = [];
  /** the running runs as last read (every runCheckMs), and the spend written since */
  private runState: { at: number; runs: Array<{ id: string; status: string; budgetUsd: number | null; spentUsd: number; wavesReleased: number }> } = {
    at: 0,
    runs: [],
  };
  /** adaptive runs whose look this worker is taking (./adaptive.ts): one at a time per run, off the claiming loop */
  private looking = new Map<string, Promise<unknown>>();
  /** Settles with this worker's first result (a call answered or failed): a one-run worker's housekeeping waits for it (run()). */
  private markFirstResult: () => void = () => {};
  private readonly firstResult = new Promise<void>((resolve) => (this.markFirstResult = resolve));
  private spentSinceCheck = new Map<string, number>();
  private lastFinishCheck = 0;
  /** what the processors see of this worker */
  private readonly context: ProcessorContext;
  /** marks of calls that may cost money, written before each call (./call-marks.ts) */
  private readonly journal: CallJournal;
  /** queries whose call this worker marked and whose result is not yet buffered */
  private readonly marked = new Set<number>();

  constructor(
    private readonly prisma: PrismaClient,
    options: WorkerOptions = {},
  ) {
    this.opts = {
      batchSize: 256,
      leaseMs: env().FOF_WORKER_LEASE_MS,
      maxCalls: env().FOF_WORKER_MAX_CALLS,
      pollMs: 200,
      flushMs: 250,
      runCheckMs: 500,
      backoffBaseMs: 500,
      backoffMaxMs: 30_000,
      heartbeatMs: 2_000,
      webhookPollMs: WEBHOOK_POLL_MS,
      // A live worker's heartbeat can wait on a busy database for up to the busy timeout (twice, with the stale
      // check itself): only a silence longer than that means it is gone.
      staleWorkerMs: Math.max(10_000, 2 * env().FOF_DB_BUSY_TIMEOUT_MS + 2_000),
      shareRenewMs: 2_000,
      shareLeaseMs: 10_000,
      maxBuffered: MAX_BUFFERED,
      stuckAfterMs: STUCK_AFTER_MS,
      ...options,
    };
    this.dataDir = options.dataDir ?? env().dataDir;
    this.journal = new CallJournal(this.prisma, this.owner);
    this.context = {
      prisma: this.prisma,
      push: (w) => this.push(w),
      mayCall: (q, m) => this.mayCall(q, m),
      seed: async (runId) => (await this.runConfig(runId)).seed,
      cached: async (runId, key) => cachedAnswer(this.prisma, runId, (await this.runConfig(runId)).reuse, key),
      backoff: (retry) => backoffMs(retry, this.opts.backoffBaseMs, this.opts.backoffMaxMs),
      dataDir: this.dataDir,
    };
  }

  stop() {
    this.stopped = true;
  }

  /** Frees what workers silent for staleWorkerMs hold (./liveness.ts). */
  async releaseStaleWorkers(): Promise<number> {
    return releaseStaleWorkers(this.prisma, { self: this.owner, staleWorkerMs: this.opts.staleWorkerMs, log: this.opts.log });
  }

  /**
   * Works until stopped (server / `fof worker`) or, with untilDone, until the worker's runs have nothing left. The
   * loop never exits on an error: database contention and anything else are logged, recorded in the heartbeat and
   * retried with backoff. A stopping worker finishes its in-flight calls, writes them, and releases what it still
   * holds, so another worker takes over at once.
   */
  async run({ untilDone = false }: { untilDone?: boolean } = {}): Promise<void> {
    // Housekeeping (dead workers, expired shares, interrupted plans, abandoned files). A worker of one run (`fof
    // run`) does it once its first call has come back (or after a second) rather than before: neither a walk of a
    // large data directory nor the first compilation of its statements is the run's to wait for, and run at the
    // first claim it held the event loop while the first requests waited to connect (bench:cli).
    const startup = this.guard("startup", async () => {
      if (this.opts.runId) await Promise.race([this.firstResult, sleep(1_000)]);
      await this.releaseStaleWorkers();
      await sweepExpiredShares(this.prisma);
      const swept = await sweepInterruptedPlanning(this.prisma);
      if (swept) this.opts.log?.(`removed ${swept} run(s) whose planning was interrupted`);
      const storage = await (await importStore()).sweepStorage(this.prisma, this.dataDir);
      if (storage.uploads || storage.files) this.opts.log?.(`removed ${storage.uploads} abandoned upload(s) and ${storage.files} unreferenced file(s)`);
    });
    if (!this.opts.runId) await startup;
    // Heartbeats on their own timer: a worker whose loop is busy or failing still says it is alive, and what ails it.
    await this.beat();
    const beats = setInterval(() => void this.beat(), Math.max(50, Math.floor(this.opts.heartbeatMs / 2)));
    beats.unref?.();
    // Webhook deliveries on their own timer too: a slow receiver never holds up claiming or writing.
    const hooks = setInterval(() => void this.deliverWebhooks(), this.opts.webhookPollMs);
    hooks.unref?.();
    // Judge passes (explanations tagged by a judge model) on theirs: a few calls per step, never holding up runs.
    const judges = this.opts.runId ? null : setInterval(() => void this.judge(), this.opts.webhookPollMs);
    judges?.unref?.();
    let lastFlush = Date.now();
    while (!this.stopped) {
      const ok = await this.guard("loop", async () => {
        const idle = this.inFlight.size === 0 && this.buffer.length === 0;
        const runs = await this.activeRuns(idle && untilDone);
        this.activeRunIds = runs.map((r) => r.id);
        if (untilDone && idle && runs.length === 0) return "done";
        await this.renewShares();
        let claimedAny = false;
        // A run that had nothing to claim this pass may be over: it is checked whatever the others are doing, so a
        // small run beside a large one ends (status, webhook, budget, `--wait`) as its last outcome is written.
        const nothingClaimed: string[] = [];
        for (const run of runs) {
          const claimed = await this.fill(run, runs.length);
          claimedAny = claimed || claimedAny;
          if (!claimed) nothingClaimed.push(run.id);
        }
        if (this.buffer.length >= 500 || (this.buffer.length && Date.now() - lastFlush >= this.opts.flushMs)) {
          await this.flush();
          lastFlush = Date.now();
        }
        if (nothingClaimed.length) await this.finishRuns(nothingClaimed);
        // Nothing to start: wait for a call to finish (or for new work), without spinning on the database. A run
        // still being planned here writes its first rows within milliseconds: its first call should not wait a poll.
        const soon = this.inFlight.size > 0 || runs.some((r) => r.status === "planning");
        if (!claimedAny) await sleep(soon ? Math.min(this.opts.pollMs, 20) : this.opts.pollMs);
        else await sleep(0);
        return "ok";
      });
      if (ok === "done") break;
      // Contention (another process holds SQLite's write lock, a serialisation failure) clears in moments: retried
      // within 250 ms, however long the streak, so a busy database is never waited out for the 30 s an outage gets.
      if (ok === undefined) await sleep(passRetryMs(this.contended, this.errorStreak, this.opts.backoffBaseMs, this.opts.backoffMaxMs));
    }
    await Promise.allSettled([startup, ...this.inFlight, ...this.looking.values()]);
    // The last writes and the lease release must land: retried through contention, a bounded number of times.
    for (let i = 0; i < 20 && (this.buffer.length || i === 0); i++) {
      const done = await this.guard("final flush", () => this.flush());
      if (done !== undefined && !this.buffer.length) break;
      await sleep(backoffMs(i, this.opts.backoffBaseMs, 5_000) + 50);
    }
    clearInterval(beats);
    clearInterval(hooks);
    if (judges) clearInterval(judges);
    await this.judging;
    await this.heartbeating;
    await this.delivering;
    await this.guard("release", () => this.releaseOwnLeases());
    // Marks still here are calls made whose results could not be written (dropped after failing alone): they were
    // made, so they are charged, at their worst case, like a dead worker's.
    await this.guard("charge unwritten calls", async () => {
      await this.journal.settled();
      const lost = await chargeLostCalls(this.prisma, this.owner);
      if (lost.calls) this.opts.log?.(`charged ${lost.calls} call(s) whose results could not be written ($${lost.usd.toFixed(4)} at worst case)`);
    });
    await this.guard("release shares", () => releaseShares(this.prisma, this.owner));
    await this.guard("stop", () =>
      this.prisma.workerStatus.updateMany({ where: { owner: this.owner }, data: { stoppedAt: new Date(), inFlight: 0, heartbeatAt: new Date() } }),
    );
  }

  /** Runs one step; on any error records it, counts it and returns undefined (the caller backs off). */
  private async guard<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      const r = await fn();
      this.errorStreak = 0;
      return r;
    } catch (e) {
      const contention = isContention(e);
      this.contended = contention;
      if (contention) {
        this.errors.contention++;
        instruments().dbBusyRetries.inc();
      } else this.errors.other++;
      this.errorStreak++;
      const message = errorLine(what, e);
      this.lastError = { message, at: new Date() };
      this.opts.log?.(message);
      return undefined;
    }
  }

  /** Sends due webhook deliveries (./../webhooks/deliver.ts), one batch at a time; failures are recorded like the loop's. */
  private deliverWebhooks(): Promise<void> {
    if (this.delivering) return this.delivering;
    this.delivering = deliverDue(this.prisma)
      .then(() => undefined)
      .catch((e: unknown) => {
        this.lastError = { message: errorLine("webhooks", e), at: new Date() };
      })
      .finally(() => {
        this.delivering = null;
      });
    return this.delivering;
  }

  /** One step of a due judge pass (../explanations/judge-pass.ts); failures are recorded like the loop's. */
  private judge(): Promise<void> {
    if (this.judging || this.stopped) return this.judging ?? Promise.resolve();
    this.judging = workJudgePass(this.prisma, { owner: this.owner, maxCalls: 25 })
      .then(() => undefined)
      .catch((e: unknown) => {
        this.lastError = { message: errorLine("judge", e), at: new Date() };
      })
      .finally(() => {
        this.judging = null;
      });
    return this.judging;
  }

  /** One heartbeat, never two at once; its failure is recorded like the loop's, without touching its backoff. */
  private beat(): Promise<void> {
    if (this.heartbeating) return this.heartbeating;
    const p = this.heartbeat()
      .catch((e: unknown) => {
        this.lastError = { message: errorLine("heartbeat", e), at: new Date() };
      })
      .finally(() => {
        this.heartbeating = null;
      });
    this.heartbeating = p;
    return p;
  }

  /** What the heartbeat says is wrong: "stuck: …" while results have waited unwritten too long, else the last error. */
  private reportedError(now: number): { message: string; at: Date } | null {
    if (this.stuck && now - this.stuck.since >= this.opts.stuckAfterMs && this.buffer.length) {
      const why = this.lastError?.message ?? "writes fail";
      return {
        message:
          `${STUCK_PREFIX} ${this.buffer.length} result(s) unwritten for ${Math.round((now - this.stuck.since) / 1000)} s, claiming nothing new — ${why}`.slice(
            0,
            500,
          ),
        at: new Date(now),
      };
    }
    return this.lastError;
  }

  /** Records this worker's heartbeat (at most every heartbeatMs): the run page shows stalled or erroring workers. */
  private async heartbeat(force = false) {
    const now = Date.now();
    if (!force && now - this.lastHeartbeat < this.opts.heartbeatMs) return;
    this.lastHeartbeat = now;
    const [host, pid] = this.owner.split(":");
    const error = this.reportedError(now);
    const data = {
      heartbeatAt: new Date(now),
      inFlight: this.inFlight.size,
      runsJson: JSON.stringify(this.activeRunIds.slice(0, 50)),
      lastError: error?.message ?? null,
      lastErrorAt: error?.at ?? null,
      stoppedAt: null,
    };
    await this.prisma.workerStatus.upsert({ where: { owner: this.owner }, create: { owner: this.owner, host, pid: Number(pid), ...data }, update: data });
    await this.releaseStaleWorkers();
    // Launches that died while planning are removed while workers run, not only at the next start.
    if (now - this.lastPlanningSweep >= PLANNING_SWEEP_MS) {
      this.lastPlanningSweep = now;
      const swept = await sweepInterruptedPlanning(this.prisma);
      if (swept) this.opts.log?.(`removed ${swept} run(s) whose planning was interrupted`);
    }
  }

  /** Gives back every query this worker still holds. */
  async releaseOwnLeases(): Promise<number> {
    const n = await releaseLeasesOf(this.prisma, this.owner);
    if (n) this.opts.log?.(`released ${n} queries on stop`);
    return n;
  }

  /** The running runs, re-read at most every runCheckMs (or now, when `fresh`): kept in memory in between. */
  private async activeRuns(fresh = false) {
    if (fresh || Date.now() - this.runState.at >= this.opts.runCheckMs) {
      const runs = await this.prisma.run.findMany({
        where:
          this.opts.runId && this.opts.whilePlanning
            ? { id: this.opts.runId, status: { in: ["running", "planning"] } }
            : this.opts.runId
              ? { status: "running", id: this.opts.runId }
              : {
                  OR: [
                    { status: "running" },
                    // A run being planned: its rows are called as they are written, by the planning process's own
                    // worker and by any other whose planner is plainly alive (heartbeat within PLANNING_FRESH_MS).
                    {
                      status: "planning",
                      OR: [{ startedAt: { gte: new Date(Date.now() - PLANNING_FRESH_MS) } }, { id: { in: [...(this.opts.plannedHere?.() ?? [])] } }],
                    },
                  ],
                },
        select: { id: true, status: true, budgetUsd: true, spentUsd: true, wavesReleased: true },
      });
      this.runState = { at: Date.now(), runs };
      this.spentSinceCheck.clear();
    }
    return this.runState.runs;
  }

  private async runConfig(runId: string) {
    let c = this.configs.get(runId);
    if (!c) {
      const run = await this.prisma.run.findUniqueOrThrow({ where: { id: runId } });
      // The run's suite reads the config it was planned with; the engine only needs its call settings.
      const suite = suiteOf(run.suiteId);
      const config = suite.configSchema.parse(JSON.parse(run.configJson));
      const settings = suite.callSettings(config);
      const helperSlug = suite.helperModel?.(config) ?? null;
      c = {
        suite,
        settings,
        seed: run.seed,
        reuse: reuseOf(run.reuseJson),
        helper: helperSlug && settings.helperParams ? { slug: helperSlug, params: settings.helperParams } : null,
      };
      this.configs.set(runId, c);
    }
    return c;
  }

  /** The provider for a run's model (./callable-model.ts) with this worker's slot for the model's concurrency. */
  private async model(runId: string, modelConfigId: string, timeoutMs: number): Promise<ModelState> {
    const key = `${runId}|${modelConfigId}`;
    let m = this.models.get(key);
    if (!m) {
      const { cfg, settings, provider, imageProvider, imageSize, providerError } = await callableModel(
        this.prisma,
        runId,
        modelConfigId,
        timeoutMs,
        (await this.runConfig(runId)).helper,
        (await this.runConfig(runId)).settings.answerMaxTokens ?? null,
      );
      let slot = this.slots.get(modelConfigId);
      if (!slot) {
        const concurrency = Math.max(1, cfg.concurrency);
        this.slots.set(
          modelConfigId,
          (slot = { modelConfigId, limit: new DynamicLimit(0), rate: new RateGate(), inFlight: 0, concurrency, granted: 0, idle: false, renewedAt: 0 }),
        );
        await this.renew(slot);
      }
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
        maxTokens: settings.modality === "t2i" ? 0 : safeMaxTokens(settings),
        overReports: 0,
        usageStop: null,
      };
      // Over-reports survive a restart (and count across workers): they are on the outcomes.
      if (settings.modality !== "t2i") {
        m.overReports = await this.prisma.outcome.count({ where: { usageExcessUsd: { gt: 0 }, query: { runId, modelConfigId } } });
        m.usageStop = overReportStop(m.overReports, m.maxTokens);
      }
      this.models.set(key, m);
    }
    return m;
  }

  /** Renews this worker's share of every model it calls (each at most every shareRenewMs). */
  private async renewShares() {
    const now = Date.now();
    for (const slot of this.slots.values()) if (now - slot.renewedAt >= this.opts.shareRenewMs) await this.renew(slot);
  }

  /** Takes this worker's share of a model's limits: it wants the whole model while it has work, else what it runs. */
  private async renew(slot: ModelSlot) {
    const want = Math.min(slot.idle ? slot.inFlight : slot.concurrency, this.opts.maxCalls ?? Infinity);
    const share = await renewShare(this.prisma, this.owner, { modelConfigId: slot.modelConfigId, want, inFlight: slot.limit.running }, this.opts.shareLeaseMs);
    slot.renewedAt = Date.now();
    slot.concurrency = share.concurrency;
    slot.granted = share.grant;
    slot.limit.setCapacity(share.grant);
    // The rates follow the share: all workers together never exceed the model's rate.
    const fraction = share.grant / share.concurrency;
    slot.rate.setRates(
      share.requestsPerMinute === null ? null : share.requestsPerMinute * fraction,
      share.tokensPerMinute === null ? null : share.tokensPerMinute * fraction,
    );
  }

  /** Claims and starts as many queries of a run as its models have free slots. */
  private async fill(run: { id: string; budgetUsd: number | null; spentUsd: number; wavesReleased: number }, activeRuns = 1): Promise<boolean> {
    const runId = run.id;
    // Results that cannot be written yet hold back new claims: the buffer stays bounded, and nothing more is paid
    // for while its results could be lost.
    if (this.buffer.length >= this.opts.maxBuffered) return false;
    // Spend as last read, plus what this worker wrote since and what it holds unwritten.
    const pendingSpend = this.buffer.reduce((a, w) => a + ((w.kind === "outcome" || w.kind === "retry") && w.query.runId === runId ? (w.costUsd ?? 0) : 0), 0);
    if (run.budgetUsd !== null && run.spentUsd + (this.spentSinceCheck.get(runId) ?? 0) + pendingSpend >= run.budgetUsd) {
      const stopped = await this.stopAtBudget(runId, `budget of $${run.budgetUsd.toFixed(2)} reached`);
      if (stopped.count) this.opts.log?.(`run ${runId}: budget reached, stopping`);
      this.runState.at = 0; // re-read the runs next time
      return false;
    }
    const { suite, settings } = await this.runConfig(runId);
    const knownSpend = run.spentUsd + (this.spentSinceCheck.get(runId) ?? 0) + pendingSpend;
    let unaffordable = 0;
    let modelIds = this.runModels.get(runId);
    if (!modelIds) {
      modelIds = (await this.prisma.runModel.findMany({ where: { runId }, select: { modelConfigId: true } })).map((r) => r.modelConfigId);
      this.runModels.set(runId, modelIds);
    }
    let claimedAny = false;
    for (const modelConfigId of modelIds) {
      const m = await this.model(runId, modelConfigId, settings.timeoutMs);
      const rmKey = `${runId}|${modelConfigId}`;
      const mine = this.runModelInFlight.get(rmKey) ?? 0;
      // Keep up to two batches' worth queued behind the concurrency limit so the provider is never idle; runs on
      // the same model share it: each run may hold its fair part, so a second run starts at once.
      // The worker's share of the model's global concurrency bounds what it claims.
      const sharing = Math.max(1, this.runsOnModel(modelConfigId, activeRuns));
      const fair = Math.ceil((m.slot.granted * 2) / sharing);
      const room = Math.min(this.opts.batchSize, m.slot.granted * 2 - m.slot.inFlight, fair - mine);
      if (room <= 0) {
        // Held back by the share, not by a lack of work: ask for more at the next renewal.
        if (m.slot.granted * 2 - m.slot.inFlight <= 0) m.slot.idle = false;
        continue;
      }
      // Claim a sizeable batch (half the share) while calls are still queued: one claim feeds many calls, so the
      // database sees a statement per dozens of queries, and the provider is never idle (a share's worth waits).
      if (m.slot.inFlight >= m.slot.granted && room < Math.min(Math.ceil(m.slot.granted / 2), fair)) continue;
      // A budgeted run reserves each call's worst case as it is claimed; a model whose next call the budget cannot
      // cover, even with nothing else reserved, is done.
      const w = run.budgetUsd === null ? 0 : await this.worstCaseOf(runId, m, settings.maxReasks);
      if (w > 0 && run.budgetUsd !== null && knownSpend + w > run.budgetUsd + 1e-9) {
        unaffordable++;
        continue;
      }
      const claimed = await this.claim(runId, modelConfigId, room, w > 0 ? { perQueryUsd: w } : null, run.wavesReleased, (await this.runConfig(runId)).reuse);
      m.slot.idle = claimed.length < room;
      for (const q of claimed) {
        claimedAny = true;
        m.slot.inFlight++;
        this.runModelInFlight.set(rmKey, (this.runModelInFlight.get(rmKey) ?? 0) + 1);
        const p = m.slot.limit
          .run(async () =>
            q.modality === "t2i"
              ? (await imageProcessor()).processImage(this.context, q, m, settings)
              : processLlm(this.context, q, m, settings, suite.readAnswer),
          )
          .catch((e: unknown) => this.opts.log?.(`query ${q.id}: ${e instanceof Error ? e.message : String(e)}`))
          .finally(() => {
            m.slot.inFlight--;
            this.runModelInFlight.set(rmKey, (this.runModelInFlight.get(rmKey) ?? 1) - 1);
            this.inFlight.delete(p);
          });
        this.inFlight.add(p);
      }
    }
    if (unaffordable > 0 && unaffordable === modelIds.length && run.budgetUsd !== null) {
      const left = Math.max(0, run.budgetUsd - knownSpend);
      const stopped = await this.stopAtBudget(
        runId,
        `budget of $${run.budgetUsd.toFixed(2)} reached: $${left.toFixed(4)} is left, less than the next call may cost`,
      );
      if (stopped.count) this.opts.log?.(`run ${runId}: budget reached, stopping`);
      this.runState.at = 0;
    }
    return claimedAny;
  }

  /** Stops a running run at its budget, with its webhook deliveries in the same transaction. */
  private stopAtBudget(runId: string, error: string) {
    return this.prisma.$transaction(async (tx) => {
      const stopped = await tx.run.updateMany({ where: { id: runId, status: "running" }, data: { status: "budget_exhausted", error } });
      if (stopped.count) await emitRunEvent(tx, runId, "run.budget_exhausted");
      return stopped;
    });
  }

  private async worstCaseOf(runId: string, m: ModelState, maxReasks: number): Promise<number> {
    const key = `${runId}|${m.id}`;
    let w = this.worstCase.get(key);
    if (w === undefined) {
      const chars = m.modality === "t2i" ? 0 : await maxPromptChars(this.prisma, runId, m.id);
      w = worstCaseUsd(m, chars, maxReasks);
      this.worstCase.set(key, w);
    }
    return w;
  }

  /** How many of the active runs use a model (known from the runs this worker has filled). */
  private runsOnModel(modelConfigId: string, activeRuns: number): number {
    let n = 0;
    for (const runId of this.activeRunIds.length ? this.activeRunIds : []) if (this.runModels.get(runId)?.includes(modelConfigId)) n++;
    return Math.min(Math.max(n, 1), Math.max(activeRuns, 1));
  }

  private claim(
    runId: string,
    modelConfigId: string,
    n: number,
    reserve: { perQueryUsd: number } | null,
    maxWave: number,
    reuse: AnswerReuse | null,
  ): Promise<Claimed[]> {
    return claimQueries(this.prisma, {
      runId,
      modelConfigId,
      n,
      token: `${this.owner}:${++this.claimSeq}`,
      leaseMs: this.opts.leaseMs,
      reserve,
      maxWave,
      reuse,
    });
  }

  /**
   * Whether a claimed query may be called now: its run still calls (as last read; for a call that may cost money, as
   * its mark's transaction reads it, and the mark is committed first). False: it is to be released, not called.
   */
  private async mayCall(q: Claimed, m: ModelState): Promise<boolean> {
    const { settings } = await this.runConfig(q.runId);
    const worst = await this.worstCaseOf(q.runId, m, settings.maxReasks);
    if (worst <= 0) return this.activeRunIds.includes(q.runId);
    const go = await this.journal.mark(q, worst);
    if (go) this.marked.add(q.id);
    return go;
  }

  private push(w: Write) {
    if ((w.kind === "outcome" || w.kind === "retry") && this.marked.delete(w.query.id)) w.marked = true;
    if (w.kind === "outcome") this.outcomes++;
    this.buffer.push(w);
    this.markFirstResult();
    if (this.buffer.length > this.peakBuffered) this.peakBuffered = this.buffer.length;
  }

  /**
   * Writes buffered results, at most MAX_WRITES_PER_TRANSACTION per transaction. A slice that fails on database
   * contention goes back in front of the buffer whole (it rolled back; outcomes are idempotent per query) and the
   * flush stops there, to be retried with backoff. A slice that fails for any other reason is split in halves and
   * each half tried alone, down to one write: one result the database refuses never holds back the rest. A single
   * outcome that cannot be stored is recorded as a failed outcome with the reason instead (the call happened; its
   * query must still end with exactly one outcome); should even that fail, it is dropped from the buffer and its
   * lease expires, so the query is tried again later. The buffer never grows past what is in flight plus
   * MAX_BUFFERED: `fill` stops claiming while it is full.
   */
  async flush(): Promise<void> {
    const prev = this.flushing;
    let release!: () => void;
    this.flushing = new Promise((r) => (release = r));
    await prev;
    try {
      // What is here now, not what arrives meanwhile (a flush always ends).
      let left = this.buffer.length;
      while (left > 0) {
        const slice = this.buffer.splice(0, Math.min(left, MAX_WRITES_PER_TRANSACTION));
        left -= slice.length;
        try {
          await this.writeSplitting(slice);
        } catch (e) {
          this.buffer = slice.concat(this.buffer);
          throw e;
        }
      }
      this.lastFlushOk = Date.now();
      this.stuck = null;
    } catch (e) {
      this.stuck ??= { since: Date.now() };
      throw e;
    } finally {
      release();
    }
  }

  /** Writes a slice; on a non-contention failure, its halves separately (contention is thrown: the caller retries). */
  private async writeSplitting(slice: Write[]): Promise<void> {
    try {
      await writeBatch(this.prisma, slice, this.owner);
      for (const w of slice)
        if ((w.kind === "outcome" || w.kind === "retry") && w.costUsd)
          this.spentSinceCheck.set(w.query.runId, (this.spentSinceCheck.get(w.query.runId) ?? 0) + w.costUsd);
      return;
    } catch (e) {
      if (isContention(e)) throw e;
      if (slice.length > 1) {
        const mid = Math.ceil(slice.length / 2);
        await this.writeSplitting(slice.slice(0, mid));
        await this.writeSplitting(slice.slice(mid));
        return;
      }
      const [w] = slice;
      const why = e instanceof Error ? (e.message.split("\n").filter(Boolean).slice(-1)[0] ?? e.message) : String(e);
      this.errors.unwritable++;
      this.lastError = { message: `write refused by the database: ${why}`.slice(0, 500), at: new Date() };
      this.opts.log?.(`a result could not be written (${w.kind}${w.kind === "cache" ? "" : ` of query ${w.query.id}`}): ${why}`);
      if (w.kind !== "outcome" || (w.image === undefined && w.status === "failed" && w.reason?.startsWith(UNSTORABLE))) return;
      // The call was made (and may have been paid): its query ends as failed, with the reason, and the spend counts.
      const failed: Write = {
        ...w,
        status: "failed",
        reason: `${UNSTORABLE}: ${why}`.slice(0, 1000),
        rawText: null,
        letter: null,
        values: NO_VALUES,
        image: undefined,
        cacheRows: [],
      };
      try {
        await this.writeSplitting([failed]);
      } catch (again) {
        if (isContention(again)) throw again;
      }
    }
  }

  /**
   * Takes an adaptive run's look beside the loop: the bootstrap takes seconds (it yields as it goes), and other runs
   * keep being claimed meanwhile. Its verdict is one conditional update, so a look another worker took first is a no-op.
   */
  private startLook(runId: string) {
    const job = this.guard("look", async () => {
      const did = await takeLook(this.prisma, runId);
      if (did === "no-evaluator") this.opts.log?.(`run ${runId}: this worker cannot score its suite's looks; another worker will`);
      else if (did !== "none") this.opts.log?.(`run ${runId}: look ${did === "stopped" ? "stopped the run" : "released the next wave"}`);
      this.runState.at = 0; // re-read the runs (their released waves) next pass
    }).finally(() => this.looking.delete(runId));
    this.looking.set(runId, job);
  }

  /**
   * Marks runs done when every query has an outcome: "failed" when not one call succeeded (with the commonest reason
   * in Run.error), else "completed" — its failed items are counted wherever its status is shown (outcomeLabel).
   */
  private async finishRuns(runIds: string[]) {
    if (Date.now() - this.lastFinishCheck < this.opts.runCheckMs) return;
    this.lastFinishCheck = Date.now();
    // Adaptive runs whose released waves are answered: a look is due (it stops the run or releases a wave).
    const settled = runIds.filter((id) => !this.looking.has(id) && !this.buffer.some((w) => w.kind !== "cache" && w.query.runId === id));
    for (const runId of await looksDue(this.prisma, settled)) this.startLook(runId);
    for (const runId of runIds) {
      // A run this worker still has calls or unwritten results for is not finished.
      if (this.buffer.some((w) => w.kind !== "cache" && w.query.runId === runId)) continue;
      const open = await this.prisma.query.count({ where: { runId, status: { in: ["pending", "leased"] } } });
      if (open !== 0 || this.looking.has(runId)) continue;
      // An adaptive run ends only by its last look's verdict (met, or the cap), never just because a wave is done.
      const adaptive = await this.prisma.run.findUnique({ where: { id: runId }, select: { adaptiveJson: true } });
      if (adaptive?.adaptiveJson && !adaptiveStateOf(adaptive.adaptiveJson)?.outcome) continue;
      const counts = (await outcomeCounts(this.prisma, [runId])).get(runId)!;
      const allFailed = counts.failed > 0 && counts.answered + counts.refused === 0;
      const error = allFailed
        ? `every call failed (${counts.failed.toLocaleString("en-US")}): ${(await failureReasons(this.prisma, runId, 1))[0]?.reason ?? NO_REASON}`.slice(
            0,
            1000,
          )
        : undefined;
      // The status and its webhook deliveries in one transaction: a run never ends without its event.
      const ended = await this.prisma.$transaction(async (tx) => {
        const ended = await tx.run.updateMany({
          where: { id: runId, status: "running" },
          data: { status: allFailed ? "failed" : "completed", finishedAt: new Date(), ...(error ? { error } : {}) },
        });
        if (!ended.count) return false;
        await emitRunEvent(tx, runId, allFailed ? "run.failed" : "run.completed");
        if (!allFailed) await emitIfLabellingDone(tx, runId);
        return true;
      });
      // Its answers are final: intervals and result views are computed now, not when someone first opens them.
      if (ended && !allFailed) void runSettled(this.prisma, runId);
    }
  }
}

/** A chat model's max_tokens (its default when its parameters do not parse: the call fails anyway then). */
function safeMaxTokens(settings: { paramsJson: string }): number {
  try {
    return modelParams(settings as Parameters<typeof modelParams>[0]).maxTokens;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// What the engine's worker and its processors share: a claimed query, a model as a run calls it, the results
// they buffer for one write, and the retry arithmetic.
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import type { ChatProvider, ImageProvider } from "../../providers";
import { ProviderError } from "../../providers";

/** Longest model output stored per response; longer text is cut and marked (the parser reads the stored text). */
export const MAX_STORED_OUTPUT = 64 * 1024;
export const TRUNCATION_MARK = "\n[… truncated by the workbench: the response was longer than 64 KiB]";

/** Caps a model's text at MAX_STORED_OUTPUT characters, marking the cut. */
export function capOutput(text: string): string {
  return text.length > MAX_STORED_OUTPUT ? text.slice(0, MAX_STORED_OUTPUT) + TRUNCATION_MARK : text;
}

import type { DynamicLimit, RateGate } from "./limits";
import type { OutcomeValues } from "./outcome-values";
import type { CachedAnswer } from "./answer-cache";
import { instruments } from "../../core/metrics";

export interface Claimed {
  id: number;
  runId: string;
  modelConfigId: string;
  modality: string;
  test: string;
  context: string | null;
  statisticId: string;
  level: string;
  attribute: string | null;
  /** a subjective query's scenario (the scenario-biased baseline answers from it) */
  scenarioIndex: number | null;
  repeatIndex: number;
  prompt: string;
  optionsJson: string;
  identityJson: string | null;
  /** the true classes as planned, per attribute ({highest, lowest}): baselines answer from it, never from today's data */
  groundTruthJson: string;
  attempts: number;
  cacheKey: string;
  /** the query whose answer completes this prompt (claimed only once that answer exists) */
  dependsOnId: number | null;
  /** the cached first answer, looked up for the whole batch at claim time (./answer-cache.ts) */
  cachedText?: string | null;
  cachedImageSha256?: string | null;
  /** when that answer is another run's (the launch asked to reuse answers): which run, and when it was obtained */
  cachedFrom?: Reused | null;
}

/** An answer another run obtained, taken because this run's launch asked for it. */
export interface Reused {
  fromRunId: string;
  at: Date;
}

/** A model as this worker calls it: its share of the model's global limits (lib/features/runs/model-share.ts). */
export interface ModelSlot {
  modelConfigId: string;
  /** calls running at once: the granted share */
  limit: DynamicLimit;
  /** requests/min and tokens/min at the share's fraction of the model's rates */
  rate: RateGate;
  /** claimed and not finished (queued behind the limit or running) */
  inFlight: number;
  /** the model's global concurrency */
  concurrency: number;
  /** this worker's share of it now (0 until the first renewal grants some) */
  granted: number;
  /** the last claim found less than it asked for: the worker wants only what it runs */
  idle: boolean;
  renewedAt: number;
}

/** A model as one run calls it: built from the run's snapshot of the model's settings at launch. */
export interface ModelState {
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
  /** chat: the max_tokens it is called with (bounds a call's worst-case cost) */
  maxTokens: number;
  /** calls of this run × model whose provider reported more usage than the request allowed (durable: from the outcomes) */
  overReports: number;
  /** set once the model is stopped for over-reporting: why its remaining queries are not called */
  usageStop: string | null;
}

export type Attempt = {
  text?: string;
  error?: string;
  latencyMs: number;
  cached?: boolean;
  /** a cached answer another run obtained: that run ("" if not recorded) and when (ISO) */
  reusedFrom?: string;
  /** the provider stopped at max_tokens (finish_reason "length"): the text is cut short */
  truncated?: boolean;
  reusedAt?: string;
  usageExcessUsd?: number;
};

export type CacheRow = {
  key: string;
  /** the run whose call obtained it */
  runId: string;
  provider: string;
  model: string;
  text: string;
  imageSha256?: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number;
};

/** A generated image, stored content-addressed; recorded as an Image row with its outcome. */
export interface GeneratedImage {
  sha256: string;
  path: string;
  mimeType: string;
  width: number;
  height: number;
  bytes: number;
}

export type Write =
  | { kind: "cache"; rows: CacheRow[] }
  | {
      kind: "outcome";
      query: Claimed;
      status: "answered" | "refused" | "failed";
      reason: string | null;
      rawText: string | null;
      letter: string | null;
      values: OutcomeValues;
      attempts: Attempt[];
      latencyMs: number | null;
      inputTokens: number | null;
      outputTokens: number | null;
      costUsd: number;
      /** calls whose reported usage passed what the request allowed, and by how many USD (not charged) */
      usageExcess?: UsageExcess | null;
      cached: boolean;
      /** the answer recorded is another run's (./answer-cache.ts) */
      reused?: Reused | null;
      cacheRows: CacheRow[];
      image?: GeneratedImage;
      /** its call was marked first (./call-marks.ts): the mark goes with this write */
      marked?: boolean;
    }
  /** costUsd: what the claim paid before it failed (re-asks answered, then an error): it counts as spent */
  | { kind: "retry"; query: Claimed; nextAttemptAt: Date; reason: string; costUsd?: number; usageExcess?: UsageExcess | null; marked?: boolean }
  /** a claimed query not called after all (its run stopped calling): back to pending, attempts unchanged */
  | { kind: "release"; query: Claimed };

interface UsageExcess {
  calls: number;
  usd: number;
}

export function attemptKey(base: string, attempt: number): string {
  return attempt === 0 ? base : createHash("sha256").update(`${base}|${attempt}`).digest("hex");
}

export function backoffMs(retry: number, baseMs: number, maxMs: number, random = Math.random): number {
  // "Full jitter": uniform in [0, min(max, base·2^n)] spreads retries of a burst apart.
  return Math.round(random() * Math.min(maxMs, baseMs * 2 ** retry));
}

/**
 * A worker pass that failed on contention is retried after 25 ms doubling to 250 ms (full jitter): another process's
 * write lock is held for milliseconds (a planning step of 100 rows, a batch of results). With an outage's backoff
 * (the worker's base doubling, 2 s at most) a worker beside a web process planning a paper run spent most of the
 * planning asleep: 0.32 × C/L while it planned (bench:pages, worker process beside the web, 2026-11-28). Any other
 * failure waits the outage's backoff (50 ms more: never a spin).
 */
export function passRetryMs(contended: boolean, streak: number, baseMs: number, maxMs: number, random = Math.random): number {
  const retry = Math.min(streak, 6);
  return contended ? backoffMs(retry, Math.min(baseMs, 25), Math.min(maxMs, 250), random) : backoffMs(retry, baseMs, maxMs, random) + 50;
}

/** What a processor needs from the worker that runs it. */
export interface ProcessorContext {
  prisma: PrismaClient;
  /** buffers a result for the worker's next write */
  push(w: Write): void;
  /**
   * Before a provider call: false when the run no longer calls (the query is to be released, not called). A call that
   * may cost money is first marked (./call-marks.ts), so it is charged even if this worker dies before its result is written.
   */
  mayCall(q: Claimed, m: ModelState): Promise<boolean>;
  /** the run's seed (baselines and the synthetic image model draw from it) */
  seed(runId: string): Promise<number>;
  /** the answer a key may be served from for a run: its own, or another run's as its launch asked (./answer-cache.ts) */
  cached(runId: string, key: string): Promise<CachedAnswer | null>;
  /** delay before the n-th retry of a retryable error */
  backoff(retry: number): number;
  dataDir: string;
}

/** One failed call classified: its message (timeouts named as such) and error kind. */
export function classifyFailure(err: unknown, aborted: boolean, timeoutMs: number): ProviderError {
  const e = err instanceof ProviderError ? err : new ProviderError(aborted ? `timed out after ${timeoutMs} ms` : String(err), "retryable");
  if (aborted && !/timed out/.test(e.message)) return new ProviderError(`timed out after ${timeoutMs} ms`, e.kind, e.retryAfterMs, e.status);
  return e;
}

/** A failed provider call, for GET /metrics: its latency by failure kind, and a 429 counted as rate limited. */
export function noteFailure(model: string, kind: string, ms: number, status?: number) {
  const m = instruments();
  m.providerCall.observe({ model, result: kind }, ms / 1000);
  if (kind === "rate_limited" || status === 429) m.providerRateLimited.inc({ model });
}

/** When to try a query again: the provider's Retry-After for a rate limit, else full-jitter backoff. */
export function retryDelay(ctx: Pick<ProcessorContext, "backoff">, attempts: number, e: ProviderError): number {
  return e.kind === "rate_limited" && e.retryAfterMs !== undefined ? e.retryAfterMs : ctx.backoff(attempts);
}

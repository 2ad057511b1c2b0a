// Reads whose work grows with a run or a plan, off the web server's event loop: a run's scores (aggregated over every
// answer), a run's summary, a content set's prompts and plan. Each runs on one of a few persistent worker threads
// (FOF_READ_THREADS) with its own database connection, so /api/health and every other page keep answering while
// four viewers ask for a paper-size plan and a 500,000-query run's scores (npm run bench:hostile). Each is
// - cached by its inputs: a content set's version (immutable) + seed + preset, a run's id + options + the state of
//   its data (status, outcomes written); identical requests in flight share one computation;
// - limited per account: at most PER_ACCOUNT computations of one account run at once, up to 8 more wait their turn
//   in that account's own queue (a cached answer or one joined in flight costs nothing), beyond that 429; at most
//   MAX_WAITING wait for a thread in all, beyond that 503 (both with Retry-After). One account's burst thus delays
//   only itself: the threads take accounts' work as it comes, never more than two of one account at a time.
// The threads load the same TypeScript modules through tsx, as the import checker's do (lib/features/imports/
// check-thread.ts): a small hand-written pool rather than a library, because the thread entry must be started by
// URL at run time (bundlers follow `new Worker(file)` and would bundle tsx into the server). Server-only.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { DomainError, type ErrorCode } from "../core/errors";
import { env } from "../env";
import type { OffloadJobs } from "./offload-jobs";

export type JobName = keyof OffloadJobs;
type ArgsOf<N extends JobName> = Parameters<OffloadJobs[N]>[0];
type ResultOf<N extends JobName> = Awaited<ReturnType<OffloadJobs[N]>>;

/** Computations one account may have running at once; up to PER_ACCOUNT_WAITING more wait their turn, the rest: 429. */
const PER_ACCOUNT = 2;
const PER_ACCOUNT_WAITING = 8;
/** Computations waiting for a thread, all accounts together. */
const MAX_WAITING = 32;
/** Answers kept, by their inputs, in all (bytes of their JSON). */
const CACHE_BYTES = 64 * 2 ** 20;

const BOOT = `import(require("node:worker_threads").workerData.entry).catch((e) => { setImmediate(() => { throw e; }); });`;
const ENTRY = () => path.join(process.cwd(), "lib", "server", "offload-thread-boot.mjs");

interface Task {
  id: number;
  name: JobName;
  args: unknown;
  resolve: (v: { value: unknown; bytes: number }) => void;
  reject: (e: unknown) => void;
}
interface Thread {
  worker: Worker;
  task: Task | null;
}

interface State {
  /** computations sent to a thread, and answers served from the cache (tests, the Workers page) */
  stats: { dispatched: number; cacheHits: number; joined: number; refused: number };
  threads: Thread[];
  waiting: Task[];
  seq: number;
  perAccount: Map<string, { running: number; waiting: Array<() => void> }>;
  inFlight: Map<string, Promise<unknown>>;
  cache: Map<string, { value: unknown; bytes: number; until: number }>;
  cacheBytes: number;
}
// One pool per process, shared by every bundle (Next bundles route handlers and pages apart).
const g = globalThis as unknown as { __fofOffload?: State };
const state: State = (g.__fofOffload ??= {
  stats: { dispatched: 0, cacheHits: 0, joined: 0, refused: 0 },
  threads: [],
  waiting: [],
  seq: 0,
  perAccount: new Map(),
  inFlight: new Map(),
  cache: new Map(),
  cacheBytes: 0,
});

function startThread(): Thread {
  const worker = new Worker(BOOT, {
    eval: true,
    workerData: { entry: pathToFileURL(ENTRY()).href },
    // A paper-size plan or a 500,000-query run's scores need a few hundred MiB at most.
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  worker.unref();
  const thread: Thread = { worker, task: null };
  worker.on("message", (m: { id: number; value?: unknown; bytes?: number; error?: { message: string; code?: string } }) => {
    const t = thread.task;
    if (!t || t.id !== m.id) return;
    thread.task = null;
    if (m.error) t.reject(m.error.code ? new DomainError(m.error.code as ErrorCode, m.error.message) : new Error(m.error.message));
    else t.resolve({ value: m.value, bytes: m.bytes ?? 0 });
    next(thread);
  });
  const lost = (why: string) => {
    state.threads = state.threads.filter((x) => x !== thread);
    thread.task?.reject(new Error(`the read thread stopped (${why})`));
    thread.task = null;
    // Another takes its place for whatever waits.
    if (state.waiting.length) next(addThread());
  };
  worker.on("error", (e) => lost(e.message));
  worker.on("exit", (code) => lost(`exit ${code}`));
  return thread;
}

function addThread(): Thread {
  const t = startThread();
  state.threads.push(t);
  return t;
}

function next(thread: Thread) {
  if (thread.task) return;
  const task = state.waiting.shift();
  if (!task) return;
  thread.task = task;
  thread.worker.postMessage({ id: task.id, name: task.name, args: task.args });
}

function dispatch(name: JobName, args: unknown): Promise<{ value: unknown; bytes: number }> {
  if (state.waiting.length >= MAX_WAITING) throw new DomainError("unavailable", "the server is busy with other large reads: try again in a few seconds");
  state.stats.dispatched++;
  return new Promise((resolve, reject) => {
    state.waiting.push({ id: ++state.seq, name, args, resolve, reject });
    const idle = state.threads.find((t) => !t.task);
    if (idle) next(idle);
    else if (state.threads.length < env().FOF_READ_THREADS) next(addThread());
  });
}

/** Whether this installation runs reads on threads (the source tree is here, as in every deployment; tests too). */
const offThreadAvailable = () => existsSync(ENTRY());

function remember(key: string, value: unknown, bytes: number, ttlMs: number) {
  if (ttlMs <= 0 || bytes > CACHE_BYTES / 4) return;
  const old = state.cache.get(key);
  if (old) state.cacheBytes -= old.bytes;
  state.cache.delete(key);
  state.cache.set(key, { value, bytes, until: Date.now() + ttlMs });
  state.cacheBytes += bytes;
  // Oldest first (a Map keeps insertion order; a hit re-inserts).
  for (const [k, e] of state.cache) {
    if (state.cacheBytes <= CACHE_BYTES) break;
    state.cache.delete(k);
    state.cacheBytes -= e.bytes;
  }
}

/**
 * Runs a job on a read thread for `account` (null: the server itself, unlimited), cached under `key` for `ttlMs`.
 * Identical requests (same key) in flight share one computation. Beyond the account's share: 429.
 */
export async function offload<N extends JobName>(name: N, args: ArgsOf<N>, opts: { key: string; ttlMs: number; account: string | null }): Promise<ResultOf<N>> {
  const key = `${name}|${opts.key}`;
  const hit = state.cache.get(key);
  if (hit && hit.until > Date.now()) {
    state.stats.cacheHits++;
    state.cache.delete(key);
    state.cache.set(key, hit);
    return hit.value as ResultOf<N>;
  }
  const joined = state.inFlight.get(key);
  if (joined) {
    state.stats.joined++;
    return (await joined) as ResultOf<N>;
  }
  const account = opts.account;
  // Refused (429) before anything is in flight: another account joining this key must never inherit this account's
  // refusal. What is in flight was accepted (running, or waiting its turn in the account's queue).
  const turn = account !== null ? acquire(account) : undefined;
  const run = (async () => {
    await turn;
    try {
      const { value, bytes } = offThreadAvailable() ? await dispatch(name, args) : await inline(name, args);
      remember(key, value, bytes, opts.ttlMs);
      return value;
    } finally {
      state.inFlight.delete(key);
      if (account !== null) release(account);
    }
  })();
  state.inFlight.set(key, run);
  return (await run) as ResultOf<N>;
}

/** Takes one of the account's running places, waiting in its own queue when both are in use; a full queue is 429. */
function acquire(account: string): Promise<void> | void {
  const a = state.perAccount.get(account) ?? { running: 0, waiting: [] };
  state.perAccount.set(account, a);
  if (a.running < PER_ACCOUNT) {
    a.running++;
    return;
  }
  if (a.waiting.length >= PER_ACCOUNT_WAITING) {
    state.stats.refused++;
    throw new DomainError("rate_limited", `you have ${PER_ACCOUNT + PER_ACCOUNT_WAITING} large reads under way already: wait for them, then try again`);
  }
  return new Promise<void>((resolve) => a.waiting.push(resolve));
}

function release(account: string) {
  const a = state.perAccount.get(account);
  if (!a) return;
  const nextInLine = a.waiting.shift();
  if (nextInLine) nextInLine();
  else if (--a.running <= 0) state.perAccount.delete(account);
}

/** Without the source tree (never in a deployment): the same job in this thread. */
async function inline(name: JobName, args: unknown): Promise<{ value: unknown; bytes: number }> {
  const { OFFLOAD_JOBS } = await import("./offload-jobs");
  const value = await (OFFLOAD_JOBS[name] as (a: unknown) => Promise<unknown>)(args);
  return { value, bytes: JSON.stringify(value)?.length ?? 0 };
}

/** What the pool has done (tests): computations dispatched, answers from the cache, requests joined to one in flight, refusals. */
export function offloadStats() {
  return { ...state.stats, threads: state.threads.length, cachedBytes: state.cacheBytes };
}

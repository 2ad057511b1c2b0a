// A run whose data stopped changing — its last outcome landed, it was cancelled, or its last image was labelled —
// is read whole by what its first viewer opens (bootstrap intervals, a suite's result views: seconds of CPU). That
// work is done once, ahead of the viewer, by listeners the results layer registers here (the engine and the labeller
// do not import it: layer order). Listeners run after the change commits, one run at a time per process, never on the
// caller's path; a failure is logged and costs only the head start (the page computes on demand as before).
import type { PrismaClient } from "../../generated/prisma/client";
import { logger } from "../log";

type Listener = (prisma: PrismaClient, runId: string) => Promise<unknown>;

// Shared by every bundle of a Next process (instrumentation registers, route handlers cancel runs).
const g = globalThis as unknown as { __fofSettled?: { listeners: Listener[]; queue: Promise<unknown>; pending: Set<string> } };
const state = (g.__fofSettled ??= { listeners: [], queue: Promise.resolve(), pending: new Set() });

/** Registers work to do once a run's data has settled (idempotent per function). */
export function onRunSettled(fn: Listener): void {
  if (!state.listeners.includes(fn)) state.listeners.push(fn);
}

/** Tells the listeners a run's data settled; returns at once (tests may await the returned promise). */
export function runSettled(prisma: PrismaClient, runId: string): Promise<void> {
  if (!state.listeners.length || state.pending.has(runId)) return Promise.resolve();
  // A run announced twice before its turn (two label batches ending together) is worked once.
  state.pending.add(runId);
  const job = state.queue.then(async () => {
    state.pending.delete(runId);
    for (const fn of state.listeners)
      await fn(prisma, runId).catch((e: unknown) =>
        logger.warn({ component: "settled", run: runId, err: e instanceof Error ? e.message : String(e) }, "computing ahead failed"),
      );
  });
  state.queue = job;
  return job;
}

/** Resolves when every announced run has been worked (tests; a process that wants to finish them before it exits). */
export function settledIdle(): Promise<void> {
  return state.queue.then(() => undefined);
}

// Planning after the launch is answered. A launch checks everything (settings, models, size, budget within the
// spending limit) and creates the run's row before it returns; writing its queries — 45,828 for FACT-OR-FAIR's paper
// preset, 159,600 for a large API launch — goes on here, in the process that launched it, while the run page shows
// "planning" with the rows written so far. This process's own worker calls those rows as they are written (the
// Worker's `plannedHere`); no other worker touches a run being planned, so a launch that dies mid-plan is still
// swept whole (runs.ts, sweepInterruptedPlanning). A planning failure leaves the run "failed" with the reason.
import { logger } from "../../log";
import type { PreparedRun } from "./runs";

/**
 * How a serving process plans: each step (render the rows, insert them in one transaction) holds the event loop, and
 * at `fof run`'s size (500 rows, 50–100 ms under load) pages and polls queued behind the steps for the whole planning
 * (~10 s of a paper run): 157 of 164 answers over 300 ms came then (bench:pages). Steps of 100 rows, and a pause after
 * each as long as the step (half the loop to planning): planning still outruns the calls many times over.
 */
export const SERVER_PLANNING = { chunk: 100, share: 0.5 } as const;

// Shared by every bundle of this process (Next bundles route handlers and instrumentation separately).
const g = globalThis as unknown as { __fofPlanningHere?: Map<string, Promise<unknown>> };
const planningHere = (g.__fofPlanningHere ??= new Map());

/** Writes a prepared run's queries without holding up the caller; the run is "failed" with the reason if it fails. */
export function planInBackground(prepared: PreparedRun): void {
  const id = prepared.run.id;
  const done = prepared
    .plan("fail")
    .catch((e: unknown) => logger.warn({ component: "planning", run: id, err: e instanceof Error ? e.message : String(e) }, "planning failed"))
    .finally(() => planningHere.delete(id));
  planningHere.set(id, done);
}

/** Runs this process is planning now (its worker may call their rows as they are written). */
export function runsPlannedHere(): string[] {
  return [...planningHere.keys()];
}

/** Waits for this process's plans to finish (tests, and a server stopping cleanly). */
export async function plansSettled(): Promise<void> {
  await Promise.all([...planningHere.values()]);
}

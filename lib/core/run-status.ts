/** "planning": its queries are being written (only the launching process's worker calls them meanwhile). */
export type RunStatus = "planning" | "queued" | "running" | "paused" | "cancelled" | "completed" | "failed" | "budget_exhausted";
/** Statuses a run can be resumed from. */
export const RESUMABLE: readonly RunStatus[] = ["paused", "budget_exhausted", "queued", "failed"];
/** Statuses in which workers are (or will be) calling: pages poll while a run is in one of them. */
// A run being planned is live too: its calls start as its rows are written, and its page follows both.
const LIVE_RUN: readonly RunStatus[] = ["planning", "running", "queued"];
export const isLive = (status: string): boolean => (LIVE_RUN as readonly string[]).includes(status);
const FINAL_RUN: readonly RunStatus[] = ["cancelled", "completed"];

/**
 * The error of a run whose planning was interrupted (its launching process died mid-plan) after it had called: it
 * ends failed with what it answered and spent, and cannot be resumed (its plan is incomplete: launch it again).
 */
export const PLANNING_INTERRUPTED = "planning interrupted";
/** The error of a run whose planning failed (lib/features/runs/runs.ts): its plan is incomplete too. */
export const PLANNING_FAILED = "planning failed";
export const planningInterrupted = (r: { status: string; error?: string | null }) =>
  r.status === "failed" && (!!r.error?.startsWith(PLANNING_INTERRUPTED) || !!r.error?.startsWith(PLANNING_FAILED));

/** A run that will spend no more: finished, or failed with an interrupted plan (it commits what it spent, not its budget). */
export const spendsNoMore = (r: { status: string; error?: string | null }) => (FINAL_RUN as readonly string[]).includes(r.status) || planningInterrupted(r);

/** The failure reason that stands for the failed items without a recorded one. */
export const NO_REASON = "no reason recorded";

/** What a worker's row says: "stale" heartbeat (not yet released), "lost" (released by another worker). */
export type WorkerState = "alive" | "stuck" | "stale" | "stopped" | "lost";
/** The error another worker records on one whose heartbeat stopped and whose work it released. */
export const LOST_PREFIX = "stopped heartbeating";
/** The badge tone of a worker state (one rule for the Workers page and run pages). */
export const workerTone = (state: WorkerState) => (state === "alive" ? "success" : state === "stopped" ? "neutral" : "danger");

export const QUERY_STATUSES = ["pending", "leased", "answered", "refused", "failed"] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];
export const DONE_QUERY: readonly QueryStatus[] = ["answered", "refused", "failed"];

/** A worker silent this long is "stale" (run page, Workers page, health). */
export const WORKER_STALE_MS = 30_000;

/** How a worker's heartbeat says it cannot write its results (lib/features/runs/worker.ts): it is alive but makes no progress. */
export const STUCK_PREFIX = "stuck:";

/**
 * A worker's state from its heartbeat row: one rule for the run page, the Workers page and the health check.
 * "stuck": it heartbeats, but its last heartbeat reports results it cannot write (it claims nothing new meanwhile).
 */
export function workerState(
  w: { stoppedAt: Date | null; heartbeatAt: Date; lastError?: string | null; lastErrorAt?: Date | null },
  now = Date.now(),
): WorkerState {
  // A worker that stopped on its own (a signal, the end of its work) wrote stoppedAt itself; one that vanished (killed,
  // crashed, cut off) was marked by another worker that released its work: "lost", never dressed up as stopped.
  if (w.stoppedAt) return w.lastError?.startsWith(LOST_PREFIX) ? "lost" : "stopped";
  if (now - w.heartbeatAt.getTime() > WORKER_STALE_MS) return "stale";
  if (w.lastError?.startsWith(STUCK_PREFIX) && w.lastErrorAt && w.lastErrorAt.getTime() >= w.heartbeatAt.getTime() - 1_000) return "stuck";
  return "alive";
}

/**
 * What a run's status says once its failed items are counted — never more than happened: a run whose every call
 * failed is "failed" (the worker sets it), one with some failures is "completed with N failed".
 */
export function outcomeLabel(status: string, failed: number): string {
  if (failed > 0 && status === "completed") return `completed with ${failed.toLocaleString("en-US")} failed`;
  if (failed > 0 && status !== "failed" && !isLive(status)) return `${status.replace("_", " ")}, ${failed.toLocaleString("en-US")} failed`;
  return status.replace("_", " ");
}

/** The badge tone of a run status (client-safe, one rule for every page). */
export function outcomeTone(status: string, failed: number): "success" | "warning" | "danger" | "info" | "neutral" {
  if (status === "failed") return "danger";
  if (failed > 0) return "warning";
  if (status === "completed") return "success";
  if (isLive(status)) return "info";
  return "neutral";
}

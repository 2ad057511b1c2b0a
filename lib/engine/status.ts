/** "planning": its queries are being written (no worker touches it yet). */
export const RUN_STATUSES = ["planning", "queued", "running", "paused", "cancelled", "completed", "failed", "budget_exhausted"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** Statuses a run can be resumed from. */
export const RESUMABLE: readonly RunStatus[] = ["paused", "budget_exhausted", "queued", "failed"];
/** Statuses in which workers are (or will be) calling: pages poll while a run is in one of them. */
export const LIVE_RUN: readonly RunStatus[] = ["running", "queued"];
export const isLive = (status: string): boolean => (LIVE_RUN as readonly string[]).includes(status);
export const FINAL_RUN: readonly RunStatus[] = ["cancelled", "completed"];

export const QUERY_STATUSES = ["pending", "leased", "answered", "refused", "failed"] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];
export const DONE_QUERY: readonly QueryStatus[] = ["answered", "refused", "failed"];

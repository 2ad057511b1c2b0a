// The run events a webhook may receive, client-safe (the admin form lists them; the engine emits them).
export const WEBHOOK_EVENTS = ["run.launched", "run.completed", "run.failed", "run.budget_exhausted", "run.cancelled", "labelling.done"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "run.launched": "a run was launched: carries its design statement, signed before any provider call (hold it to check the run's evidence later)",
  "run.completed": "a run completed (its outcome says whether items failed)",
  "run.failed": "a run failed (every call failed, or it could not go on)",
  "run.budget_exhausted": "a run stopped at its budget",
  "run.cancelled": "a run was cancelled",
  "labelling.done": "every image of a text-to-image run has its faces labelled",
};

/** Headers of a delivery: what it is, which one (retries keep it), and its signature. */
export const WEBHOOK_HEADERS = { event: "x-fof-event", delivery: "x-fof-delivery", signature: "x-fof-signature" } as const;

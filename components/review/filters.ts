// The review queue's filters, shared by the server page (reads them from the address) and the client queue.
export const FILTER_KEYS = [
  "runId",
  "suite",
  "model",
  "statisticId",
  "level",
  "test",
  "context",
  "attribute",
  "group",
  "state",
  "confidenceBelow",
  "assignmentId",
] as const;
export type Filters = Record<(typeof FILTER_KEYS)[number], string>;

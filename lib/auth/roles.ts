// Who may do what: the one role matrix, client-safe, imported by the server guard (which refuses) and by pages
// (which hide what a role cannot do). One role per user, set by an admin.

export const ROLES = ["admin", "runner", "reviewer", "annotator", "viewer", "metrics"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Admin — users, models, credentials overview, everything",
  runner: "Runner — launch and steer runs within a spending limit, import images",
  reviewer: "Reviewer — read every run and result, export, compare, deal assignments",
  annotator: "Annotator — label and review faces, and tag explanations, they are assigned or allowed",
  viewer: "Viewer — read-only results",
  metrics: "Metrics — only the Prometheus metrics (a scraper's account or token), nothing else",
};

/**
 * Permissions name what a request does, not which page it comes from, so a route and the button that calls it ask
 * the same question.
 */
export const PERMISSIONS = [
  /** read results, leaderboards, the benchmark, run pages and scores */
  "results.read",
  /** read raw model output, prompts and answers, and export raw data (JSONL, CSV of answers) */
  "data.export",
  /** launch runs (spending money) and pause / resume / cancel / re-budget one's own */
  "runs.manage",
  /** pause / resume / cancel / re-budget anyone's runs (a raise is charged to whoever raises it) */
  "runs.manage.any",
  /** import images for import-only models */
  "images.import",
  /** lease images and store face labels from the Label page */
  "faces.label",
  /** review faces: label, mark not-a-face, fix detections */
  "faces.review",
  /** read chain-of-thought explanations and tag the cognitive errors they show (issue #67) */
  "explanations.review",
  /** verify or dispute items of a suite's content (historical entries written for the workbench) */
  "content.review",
  /** import a suite's content from files a user supplies (e.g. the official DoFaiR entries): a new content version */
  "content.import",
  /** write a team's content set: import or edit a version (a draft until approved) */
  "content.author",
  /** approve a content-set version for runs, or retire one */
  "content.approve",
  /** deal review assignments, see agreement and the detector report */
  "review.manage",
  /** mark reviewed faces as gold (served blind to measure annotators) and leave an annotator's votes out of consensus */
  "annotators.manage",
  /** register, change, archive and delete models; see the server's credentials */
  "models.manage",
  /** users, roles, spending limits, invitations, the activity log */
  "users.manage",
  /** webhooks: the URLs told about run events, and their delivery log */
  "webhooks.manage",
  /** scrape the operator's metrics (GET /metrics): counts, latencies, spend per model and account */
  "metrics.read",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const MATRIX: Record<Role, readonly Permission[]> = {
  admin: PERMISSIONS,
  runner: ["results.read", "data.export", "runs.manage", "images.import", "review.manage", "content.author"],
  reviewer: ["results.read", "data.export", "review.manage", "faces.review", "explanations.review", "content.review"],
  annotator: ["faces.label", "faces.review", "explanations.review"],
  viewer: ["results.read"],
  metrics: ["metrics.read"],
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Whether a role may do something (an unknown role may do nothing). */
export function can(role: string | null | undefined, permission: Permission): boolean {
  return isRole(role) && MATRIX[role].includes(permission);
}

/** Everything a role may do, for pages deciding what to show. */
export function permissionsOf(role: string | null | undefined): ReadonlySet<Permission> {
  return new Set(isRole(role) ? MATRIX[role] : []);
}

// Every route handler's path template (app/**/route.ts, a dynamic segment as :name, a catch-all as :name*), in one
// list so that what a request is labelled by in /metrics (and named by in spans and logs) comes from the code, never
// from the client: a path no template matches is "unmatched", whatever it holds. tests/route-templates.test.ts
// checks the list against the app folder, so a new route cannot be left out. Client-safe (data only).
export const ROUTE_TEMPLATES = [
  "/.well-known/fof-evidence-key",
  "/api/auth/:all*",
  "/api/face-models/:kind",
  "/api/health",
  "/api/images/:id",
  "/api/imports",
  "/api/imports/:id/commit",
  "/api/imports/:id/files",
  "/api/label/lease",
  "/api/label/readings",
  "/api/label/release",
  "/api/label/results",
  "/api/results/ranks",
  "/api/results/scores",
  "/api/review/annotations",
  "/api/review/exclusions",
  "/api/review/faces",
  "/api/review/faces/:id",
  "/api/review/gold",
  "/api/review/images",
  "/api/review/images/:id",
  "/api/runs/:id",
  "/api/runs/:id/bundle",
  "/api/runs/:id/corrected",
  "/api/runs/:id/export",
  "/api/runs/:id/images",
  "/api/runs/:id/intervals",
  "/api/runs/:id/queries",
  "/api/suites/:suiteId/data",
  "/api/suites/:suiteId/estimate",
  "/api/v1/compare",
  "/api/v1/content-sets",
  "/api/v1/content-sets/:ref",
  "/api/v1/content-sets/:ref/approve",
  "/api/v1/content-sets/:ref/retire",
  "/api/v1/explanations/gold",
  "/api/v1/explanations/queue",
  "/api/v1/explanations/readings",
  "/api/v1/imports",
  "/api/v1/imports/:id/commit",
  "/api/v1/imports/:id/files",
  "/api/v1/log/checkpoint",
  "/api/v1/log/consistency",
  "/api/v1/log/entries",
  "/api/v1/log/proof",
  "/api/v1/models",
  "/api/v1/openapi.json",
  "/api/v1/runs",
  "/api/v1/runs/:id",
  "/api/v1/runs/:id/bundle",
  "/api/v1/runs/:id/cancel",
  "/api/v1/runs/:id/design",
  "/api/v1/runs/:id/explanations",
  "/api/v1/runs/:id/explanations/export",
  "/api/v1/runs/:id/explanations/items",
  "/api/v1/runs/:id/explanations/judge",
  "/api/v1/runs/:id/explanations/samples",
  "/api/v1/runs/:id/export",
  "/api/v1/runs/:id/pause",
  "/api/v1/runs/:id/resume",
  "/api/v1/runs/:id/scores",
  "/api/v1/suites",
  "/docs/:name",
  "/metrics",
] as const;

export type RouteTemplate = (typeof ROUTE_TEMPLATES)[number];

/** The label of a path no route handler serves. */
export const UNMATCHED_ROUTE = "unmatched";

const parsed = ROUTE_TEMPLATES.map((t) => ({ template: t, segments: t.split("/").filter(Boolean) }));

/**
 * The template a request path matches (a static segment beats a dynamic one at the same place), or "unmatched".
 * Bounded work whatever the path: at most 64 segments are looked at, each template once.
 */
export function matchRoute(path: string): RouteTemplate | typeof UNMATCHED_ROUTE {
  const raw = path.split("?")[0]!.split("/").filter(Boolean);
  if (raw.length > 64) return UNMATCHED_ROUTE;
  let best: { template: RouteTemplate; statics: number } | null = null;
  for (const { template, segments } of parsed) {
    let statics = 0;
    let ok = true;
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!;
      if (s.endsWith("*")) {
        ok = raw.length > i;
        break;
      }
      if (i >= raw.length) {
        ok = false;
        break;
      }
      if (s.startsWith(":")) continue;
      if (s !== raw[i]) {
        ok = false;
        break;
      }
      statics++;
    }
    if (ok && !segments.at(-1)?.endsWith("*") && raw.length !== segments.length) ok = false;
    if (ok && (!best || statics > best.statics)) best = { template, statics };
  }
  return best?.template ?? UNMATCHED_ROUTE;
}

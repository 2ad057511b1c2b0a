// What this process measures for Prometheus (GET /metrics, lib/server/metrics.ts; docs/operations.md): provider
// calls, retries and rate limits, HTTP requests, database busy retries, labelling and webhook attempts, plus Node's
// own (event-loop lag, memory, GC). One registry per process, shared by every bundle (the server's route handlers
// and its worker run in different module graphs), so counters are never split or double-registered. What the
// database already knows (runs, outcomes, spend, queues) is read from it at scrape time instead, so it agrees with
// the rows by construction. Server-only.
//
// prom-client is required on the first use, not imported: a `fof run` process records its first call's duration
// only after the call, and loading the client (and starting its default collectors) before it was ~50 ms of the
// run's start (`npm run bench:cli`).
import { createRequire } from "node:module";
import path from "node:path";
import { matchRoute } from "./route-templates";

type PromClient = typeof import("prom-client");

function build() {
  const { collectDefaultMetrics, Counter, Histogram, Registry } = createRequire(path.join(process.cwd(), "package.json"))("prom-client") as PromClient;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "fof_" });
  const registers = [registry];
  return {
    registry,
    providerCall: new Histogram({
      name: "fof_provider_call_duration_seconds",
      help: "Provider calls (chat and image), by model and result (ok, or the failure's kind), in seconds",
      labelNames: ["model", "result"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 180],
      registers,
    }),
    providerRetries: new Counter({
      name: "fof_provider_retries_total",
      help: "Calls retried after a failure, by model and the failure's kind",
      labelNames: ["model", "kind"] as const,
      registers,
    }),
    providerRateLimited: new Counter({
      name: "fof_provider_rate_limited_total",
      help: "Provider answers 429 (rate limited), by model",
      labelNames: ["model"] as const,
      registers,
    }),
    http: new Histogram({
      name: "fof_http_request_duration_seconds",
      help: "API requests by method, route (the handler's template, e.g. /api/v1/runs/:id; unmatched for any other path) and status, in seconds",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    dbBusyRetries: new Counter({
      name: "fof_db_busy_retries_total",
      help: "Database statements retried because another writer held the lock (SQLite) or a transaction conflicted",
      registers,
    }),
    sqliteCheckpoint: new Histogram({
      name: "fof_sqlite_checkpoint_duration_seconds",
      help: "SQLite WAL checkpoints that moved pages, done by this process's checkpoint thread (off the event loop), in seconds",
      buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    outcomesWritten: new Counter({
      name: "fof_outcomes_written_total",
      help: "Outcomes this process's workers recorded (each query's one outcome, counted once it is committed), by modality and outcome",
      labelNames: ["modality", "outcome"] as const,
      registers,
    }),
    labelled: new Counter({
      name: "fof_labelled_total",
      help: "Images and faces labelled by this process's label workers and the labels they saved, by what (images | faces) and instrument",
      labelNames: ["what", "instrument"] as const,
      registers,
    }),
    webhookAttempts: new Counter({
      name: "fof_webhook_attempts_total",
      help: "Webhook delivery attempts by result (delivered, retry, failed, refused)",
      labelNames: ["result"] as const,
      registers,
    }),
  };
}

const g = globalThis as unknown as { __fofMetrics?: ReturnType<typeof build> };
/** The process's instruments (created on first use). */
export function instruments() {
  return (g.__fofMetrics ??= build());
}

/**
 * A request path as the route template it is served by (`/api/v1/runs/:id`), or "unmatched": the label set is the
 * app's routes, fixed at build time — no series depends on what a client sends (lib/core/route-templates.ts).
 */
export function routeTemplate(path: string): string {
  return matchRoute(path);
}

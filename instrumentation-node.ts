// The Node half of instrumentation.ts: starts the run engine inside the Next server (FOF_WORKER=on|inline: `next dev`,
// scripts/serve.ts alone). `npm start` passes FOF_WORKER=off here and runs `fof worker` beside it (scripts/start.ts);
// FOF_WORKER_LABEL=on|only also (or only) labels the faces of runs launched with "label automatically".
export async function registerNode() {
  const { env } = await import("./lib/env");
  // OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/core/tracing.ts); Next.js's own request spans join ours.
  await (await import("./lib/core/tracing")).startTracing(env().FOF_WORKER_LABEL === "only" ? "fof-labeller" : "fof-web");
  // Before better-auth is made: a refused issuer is never offered nor contacted (lib/auth/sso.ts).
  await (await import("./lib/auth/sso")).prepareSso();
  await firstRun(env());
  const metricsAt = env().FOF_METRICS_LISTEN;
  if (metricsAt) (await import("./lib/server/metrics-listener")).startMetricsListener(metricsAt, (m) => console.error(`[metrics] ${m}`));
  // Intervals and result views computed when a run's data settles (its end, its last label — labels can arrive
  // through this process's API even with FOF_WORKER=off), before anyone opens them.
  (await import("./lib/features/results/ahead")).registerAhead();
  if (env().FOF_WORKER === "off") return;
  const { startServerWorker, startServerLabelWorker } = await import("./lib/features/runs/server-worker");
  // Adaptive runs' looks are scored by the results layer, which the engine does not import (layer order).
  (await import("./lib/features/results/adaptive-looks")).registerLooks();
  if (env().FOF_WORKER_LABEL !== "only") startServerWorker();
  if (env().FOF_WORKER_LABEL !== "off") void startServerLabelWorker();
}

/**
 * Accounts on start: FOF_ADMIN_EMAIL + FOF_ADMIN_PASSWORD create the first admin headlessly; otherwise, while no
 * account exists, the log says where to create one (the setup page, with its one-time token for a remote browser).
 */
async function firstRun(e: { dataDir: string; FOF_ADMIN_EMAIL?: string }) {
  const { db } = await import("./lib/db");
  const { ensureAdminFromEnv, userCount } = await import("./lib/auth/users");
  const { setupToken } = await import("./lib/auth/setup");
  const { publicUrl } = await import("./lib/core/public-url");
  const { adoptNameOnlyAnnotators } = await import("./lib/auth/legacy");
  try {
    const adopted = await adoptNameOnlyAnnotators(db());
    if (adopted) console.error(`[auth] ${adopted} annotator name(s) of older labels became placeholder accounts`);
    if (await ensureAdminFromEnv(db(), e.FOF_ADMIN_EMAIL))
      console.error(`[auth] created the admin ${e.FOF_ADMIN_EMAIL} from FOF_ADMIN_EMAIL / FOF_ADMIN_PASSWORD`);
    // The token link works from anywhere (and under `next dev`); the bare page only from this machine under `npm start`.
    if ((await userCount(db())) === 0)
      console.error(
        `[auth] no account yet: create the first admin at ${publicUrl()}/setup?token=${setupToken(e.dataDir)} (from this machine, under npm start, ${publicUrl()}/setup needs no token)`,
      );
  } catch (err) {
    console.error(`[auth] ${err instanceof Error ? err.message : String(err)}`);
  }
}

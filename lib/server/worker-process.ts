// npm start's worker process (scripts/start.ts): the command it runs and where it serves its metrics to the web
// server (lib/server/process-metrics.ts). Shared with the test that runs the same layout without a build.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Longest Unix socket path every platform takes (sun_path is 104–108 bytes). */
const SOCKET_PATH_MAX = 100;

/**
 * Where the worker serves its metrics: a socket in the data directory (owner-only), or — when that path is too
 * long for a socket — in a fresh owner-only folder of the system's temporary directory.
 */
export function workerMetricsSocket(dataDir: string): string {
  const inData = path.join(dataDir, "worker-metrics.sock");
  if (Buffer.byteLength(inData) <= SOCKET_PATH_MAX) return inData;
  return path.join(mkdtempSync(path.join(tmpdir(), "fof-")), "worker-metrics.sock");
}

/**
 * The bundled CLI that `npm run build` makes (as the worker units run it); the sources through tsx without one (or
 * when asked: a test of the sources must not run a bundle left by an earlier build).
 */
export function workerArgs(cwd: string, metricsSocket: string | null, useBundle = true): string[] {
  const bundled = path.join(cwd, "dist", "fof.mjs");
  // --label-if-available: with FOF_WORKER_LABEL=on and no face models, runs are still worked (as the server's own
  // worker did); a `fof worker` unit stops instead, so an operator sees the mistake.
  const cmd = ["worker", "--label-if-available", ...(metricsSocket ? ["--metrics-socket", metricsSocket] : [])];
  return useBundle && existsSync(bundled) ? [bundled, ...cmd] : ["--import", "tsx", path.join(cwd, "bin", "fof.ts"), ...cmd];
}

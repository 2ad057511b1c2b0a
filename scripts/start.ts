// `npm start`: migrate + seed the embedded SQLite database, then serve the production build — and, by default, work
// runs in a worker process of its own beside the server (FOF_WORKER=on). On one event loop, a paper run's calls,
// planning reads and looks held pages and the live summary for 100–170 ms at a time (docs/BENCHMARKS.md, "Pages under
// load"); in two processes the operating system shares the cores between them. FOF_WORKER=inline keeps the worker in
// the server's process (one process, as before), FOF_WORKER=off starts none (runs wait for `fof worker` elsewhere).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { env } from "../lib/env";
import { migrateAndSeed } from "../lib/db/migrate";
import { CLIENT_SECRET_ENV, parseTrustedProxies } from "../lib/auth/client-address";
import { supervise } from "../lib/server/supervise";
import { workerArgs, workerMetricsSocket } from "../lib/server/worker-process";

const say = (m: string) => process.stderr.write(`[start] ${m}\n`);

async function main() {
  const { PORT, HOST, dataDir, FOF_WORKER, FOF_WORKER_METRICS_LISTEN } = env();
  if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    process.stderr.write("No production build found: run `npm run build` first (the README's first command does).\n");
    process.exit(1);
  }
  parseTrustedProxies(process.env.FOF_TRUSTED_PROXIES); // a typo stops the start, not the first request
  await migrateAndSeed();
  process.stderr.write(`FACT-OR-FAIR workbench on http://${HOST}:${PORT} (data in ${dataDir})\n`);
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" };
  delete base.FOF_WORKER_METRICS_SOCKET; // ours to set, below
  // The worker serves its counters on a socket, and the web server's /metrics includes them (process="worker").
  const metricsSocket = FOF_WORKER === "on" ? workerMetricsSocket(dataDir) : null;
  // Next.js behind our own node:http server (scripts/serve.ts), which decides the client's address from the socket.
  // A fresh secret per start signs what it tells the app about each request. With a worker process of its own, the
  // server does no run work (FOF_WORKER=off there); "inline" is the server's own worker.
  const webEnv = {
    ...base,
    PORT: String(PORT),
    HOST,
    FOF_WORKER: FOF_WORKER === "on" ? "off" : FOF_WORKER,
    ...(metricsSocket ? { FOF_WORKER_METRICS_SOCKET: metricsSocket } : {}),
    [CLIENT_SECRET_ENV]: randomBytes(24).toString("base64url"),
  };
  const web = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "scripts", "serve.ts")], { stdio: "inherit", env: webEnv });
  // The web process keeps FOF_METRICS_LISTEN for its own listener; the worker answers on its own address if asked.
  const workerEnv = { ...base, FOF_METRICS_LISTEN: FOF_WORKER_METRICS_LISTEN ?? "" };
  const worker = FOF_WORKER === "on" ? supervise("worker", { args: workerArgs(process.cwd(), metricsSocket), env: workerEnv, log: say }) : null;
  if (worker && FOF_WORKER_METRICS_LISTEN) say(`the worker's metrics on ${FOF_WORKER_METRICS_LISTEN}`);
  if (FOF_WORKER === "off") say("FOF_WORKER=off: no worker here — runs wait for `fof worker` processes");
  let stopping = false;
  const forward = (sig: NodeJS.Signals) => {
    stopping = true;
    web.kill(sig);
    void worker?.stop();
  };
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  web.on("exit", (code, signal) => {
    // The worker outlives no server: it finishes its in-flight calls and gives its leases back, then we exit.
    if (!stopping) say(`the web server ended (${signal ?? `exit ${code}`}); stopping the worker`);
    void (worker?.stop() ?? Promise.resolve()).then(() => process.exit(code ?? (signal ? 1 : 0)));
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});

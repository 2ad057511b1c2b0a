// npm start's two processes, one /metrics (docs/operations.md, Metrics): the supervised worker serves its own
// instruments on a Unix socket in the data directory (owner-only, like the directory), and the web server reads them
// when scraped — and every few seconds while it is being scraped, so a worker that dies loses at most that much —
// and answers both, each series labelled `process="web"` or `process="worker"`; RestartCarry keeps the worker's
// counters from going backwards across its restarts. Separate worker hosts keep their own FOF_METRICS_LISTEN.
import { randomUUID } from "node:crypto";
import { chmodSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { instruments } from "../core/metrics";
import { RestartCarry, withProcessLabel, type MetricJson, type ProcessSnapshot } from "./metrics-merge";

/** A read of the worker's socket that takes longer than this is given up (the scrape answers without it). */
const READ_TIMEOUT_MS = 1_500;
/** While scraped, the worker is also read this often (what a crash can lose). */
const POLL_MS = 5_000;
/** Polling stops when nobody has scraped for this long. */
const IDLE_MS = 10 * 60_000;
/** The worker's answer is bounded (its instruments are a few hundred series). */
const MAX_BYTES = 8 * 1024 * 1024;

/** The process's own series, without the database-read gauges (the web server reads those itself). */
export async function ownMetrics(exclude: ReadonlySet<string>): Promise<MetricJson[]> {
  const all = (await instruments().registry.getMetricsAsJSON()) as unknown as MetricJson[];
  return all.filter((m) => !exclude.has(m.name));
}

/** The worker's side: GET /snapshot on the socket answers its instruments (no auth: the socket is owner-only). */
export function serveProcessMetrics(socketPath: string, exclude: ReadonlySet<string>, log: (m: string) => void = () => undefined): Server {
  const incarnation = randomUUID();
  rmSync(socketPath, { force: true }); // a socket left by a worker that was killed
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url !== "/snapshot") {
      res.writeHead(404).end();
      return;
    }
    ownMetrics(exclude)
      .then((metrics) => {
        const body: ProcessSnapshot = { incarnation, pid: process.pid, metrics };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      })
      .catch(() => res.writeHead(500).end());
  });
  server.listen(socketPath, () => {
    chmodSync(socketPath, 0o600);
    log(`metrics for the web server's /metrics on ${socketPath}`);
  });
  return server;
}

/** Reads the worker's snapshot; null when it does not answer (not started yet, restarting, stuck). */
export function readProcessMetrics(socketPath: string): Promise<ProcessSnapshot | null> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: "/snapshot", method: "GET", timeout: READ_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_BYTES) req.destroy();
        else chunks.push(c);
      });
      res.on("end", () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ProcessSnapshot;
          resolve(res.statusCode === 200 && typeof body.incarnation === "string" && Array.isArray(body.metrics) ? body : null);
        } catch {
          resolve(null);
        }
      });
      res.on("error", () => resolve(null));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(null));
    req.end();
  });
}

const g = globalThis as unknown as {
  __fofWorkerMetrics?: { carry: RestartCarry; latest: MetricJson[]; up: boolean; scrapedAt: number; timer: NodeJS.Timeout | null };
};

/**
 * The web server's side: the worker's series as of now (read at once; a read that fails keeps the last ones, marked
 * by `fof_worker_metrics_up 0`), labelled `process="worker"`, with its earlier incarnations carried.
 */
export async function workerSeries(socketPath: string): Promise<{ metrics: MetricJson[]; up: boolean }> {
  const state = (g.__fofWorkerMetrics ??= { carry: new RestartCarry(), latest: [], up: false, scrapedAt: 0, timer: null });
  const read = async () => {
    const snap = await readProcessMetrics(socketPath);
    state.up = snap !== null;
    if (snap) state.latest = withProcessLabel(state.carry.absorb(snap), "worker");
  };
  state.scrapedAt = Date.now();
  await read();
  if (!state.timer) {
    state.timer = setInterval(() => {
      if (Date.now() - state.scrapedAt > IDLE_MS) {
        clearInterval(state.timer!);
        state.timer = null;
      } else void read();
    }, POLL_MS);
    state.timer.unref();
  }
  return { metrics: state.latest, up: state.up };
}

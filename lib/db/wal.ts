// SQLite's write-ahead log, checkpointed off the event loop.
//
// better-sqlite3 runs every statement on the calling thread. By default SQLite checkpoints inside the COMMIT that
// takes the WAL past 1,000 pages: it copies those pages into the database file and syncs it, on the event loop.
// Under a paper-size run that COMMIT took 0.4–1.9 s here (npm run bench:pages, one process: 57 answers over 300 ms,
// a live summary at 3.6 s), the whole server waiting on the disk. So a process that writes much moves checkpoints
// to a thread of its own with its own connection (PRAGMA wal_checkpoint(PASSIVE) every second: it never waits for,
// nor blocks, readers and writers), and its own connections stop checkpointing (wal_autocheckpoint = 0).
//
// The thread starts only once the WAL file has grown past WAL_START_BYTES (a command that writes little never pays
// for a thread). Until it is ready, and again should it ever stop, SQLite's own checkpoints are left on: the WAL is
// never left to grow unchecked. Several processes on one file each run their own (SQLite serialises checkpoints; a
// PASSIVE one that finds another at work just returns).
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { instruments } from "../core/metrics";
import { logger } from "../log";

/** The database file a `file:` URL names. */
export const sqliteFile = (url: string) => url.replace(/^file:/, "").split("?")[0];

/** A WAL past this size has been written to enough to be worth a thread (SQLite's own threshold is ~4 MiB). */
const WAL_START_BYTES = 2 * 1024 * 1024;
const CHECKPOINT_EVERY_MS = 1_000;

// Plain CommonJS for an eval'd thread: it loads the same native driver as the process and reports every checkpoint
// that moved pages (its duration is the time the event loop no longer spends).
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0 });
parentPort.postMessage({ ready: true });
setInterval(() => {
  const t0 = performance.now();
  const [r] = db.pragma("wal_checkpoint(PASSIVE)");
  if (r && r.checkpointed > 0) parentPort.postMessage({ ms: performance.now() - t0, log: r.log, checkpointed: r.checkpointed, busy: r.busy });
}, workerData.everyMs);
`;

type Autocheckpoint = (on: boolean) => Promise<void>;

interface Checkpointer {
  /** the connections that stop checkpointing while the thread runs (and start again if it stops) */
  connections: Set<Autocheckpoint>;
  state: "waiting" | "starting" | "running" | "stopped";
  checkpoints: number;
  pages: number;
}

const g = globalThis as unknown as { __fofWal?: Map<string, Checkpointer> };
const checkpointers = (g.__fofWal ??= new Map());

/** What this process's checkpoint thread for `file` has done (tests, diagnostics); undefined before any connection. */
export function walCheckpointer(file: string): Readonly<Pick<Checkpointer, "state" | "checkpoints" | "pages">> | undefined {
  return checkpointers.get(path.resolve(file));
}

/**
 * Registers a connection to `file` whose own checkpoints are turned off (via `autocheckpoint(false)`) once this
 * process's checkpoint thread runs, and on again (`autocheckpoint(true)`) if the thread stops.
 */
export function offloadCheckpoints(file: string, autocheckpoint: Autocheckpoint): void {
  if (!file || file === ":memory:" || file.startsWith("file::memory:")) return;
  const key = path.resolve(file);
  let c = checkpointers.get(key);
  if (!c) {
    c = { connections: new Set(), state: "waiting", checkpoints: 0, pages: 0 };
    checkpointers.set(key, c);
    watch(key, c);
  }
  c.connections.add(autocheckpoint);
  if (c.state === "running") void tell(c, autocheckpoint, false);
}

/**
 * Sets one connection's own checkpoints. A connection closed since it registered (a client disconnected) throws — at
 * once, the driver being synchronous — and is forgotten: its client is gone, and it must not take the process down.
 */
function tell(c: Checkpointer, f: Autocheckpoint, on: boolean): Promise<void> {
  return Promise.resolve()
    .then(() => f(on))
    .catch(() => void c.connections.delete(f));
}

function watch(file: string, c: Checkpointer) {
  const timer = setInterval(() => {
    void stat(`${file}-wal`).then(
      (s) => {
        if (s.size < WAL_START_BYTES || c.state !== "waiting") return;
        clearInterval(timer);
        start(file, c);
      },
      () => undefined,
    );
  }, CHECKPOINT_EVERY_MS);
  timer.unref();
}

function start(file: string, c: Checkpointer) {
  let driver: string;
  try {
    // Resolved from the project, as the server's bundles resolve this external package (next.config.mjs).
    driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  } catch {
    c.state = "stopped"; // SQLite's own checkpoints stay on
    return;
  }
  c.state = "starting";
  const thread = new Worker(THREAD, { eval: true, workerData: { driver, file, everyMs: CHECKPOINT_EVERY_MS } });
  const setAll = (on: boolean) => Promise.all([...c.connections].map((f) => tell(c, f, on)));
  thread.on("message", (m: { ready?: true; ms?: number; checkpointed?: number }) => {
    if (m.ready) {
      c.state = "running";
      void setAll(false);
      return;
    }
    c.checkpoints++;
    c.pages += m.checkpointed ?? 0;
    instruments().sqliteCheckpoint.observe((m.ms ?? 0) / 1000);
  });
  const stopped = (why: string) => {
    if (c.state === "stopped") return;
    c.state = "stopped";
    void setAll(true);
    logger.warn({ component: "db", file }, `WAL checkpoints back on the event loop: ${why}`);
  };
  thread.on("error", (e) => stopped(e instanceof Error ? e.message : String(e)));
  thread.on("exit", (code) => stopped(`checkpoint thread exited (${code})`));
  // Never what keeps a process alive: after the listeners, which would otherwise hold it (a `fof run` that had
  // finished its work never exited).
  thread.unref();
}

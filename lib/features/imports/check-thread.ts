// Runs an import's check (check-worker.ts) on a worker thread, a bounded number at a time: the web
// server keeps answering while a batch of thousands of images, or a hostile archive, is inflated and decoded.
// The worker loads the same TypeScript modules through tsx (a dependency), like `npm start` and the CLI do: its
// entry is a small .mjs (check-worker-boot.mjs) that imports the .ts through tsx's ESM loader in that thread.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import pLimit from "p-limit";
import type { ImportPlan, UploadedFile } from "../../images/import";
import { DomainError } from "../../core/errors";

/** Commits checked at once per process; more wait their turn, and past MAX_WAITING they are refused (503). */
const MAX_CONCURRENT_COMMITS = 2;
const MAX_WAITING_COMMITS = 8;
const limit = pLimit(MAX_CONCURRENT_COMMITS);

const WORKER = () => path.join(process.cwd(), "lib", "features", "imports", "check-worker-boot.mjs");
// The thread starts from a one-line eval'd script that imports the entry by URL at run time: bundlers (Next's
// Turbopack) follow a `new Worker(file)` and would try to bundle tsx and esbuild's binary into the server.
const BOOT = `import(require("node:worker_threads").workerData.entry).catch((e) => { setImmediate(() => { throw e; }); });`;

/** Whether this installation can check imports off-thread (the source tree is here, as in every deployment). */
export function canCheckOffThread(): boolean {
  return existsSync(WORKER());
}

/** Whether another commit may start checking now (asked before an upload is consumed, so a refusal loses nothing). */
export function commitSlotAvailable(): boolean {
  return limit.pendingCount < MAX_WAITING_COMMITS;
}

export function planImportOffThread(files: UploadedFile[], suiteId: string, spillDir: string): Promise<ImportPlan> {
  if (limit.pendingCount >= MAX_WAITING_COMMITS) throw new DomainError("unavailable", "too many imports are being checked right now: try again in a minute");
  return limit(
    () =>
      new Promise<ImportPlan>((resolve, reject) => {
        const w = new Worker(BOOT, {
          eval: true,
          workerData: { files, suiteId, spillDir, entry: pathToFileURL(WORKER()).href },
          // One image at a time is in memory (≤ 25 MiB, decoded ≤ 8192² × 4); the heap stays well under this.
          resourceLimits: { maxOldGenerationSizeMb: 768 },
          stdout: false,
          stderr: false,
        });
        let settled = false;
        w.once("message", (m: { plan?: ImportPlan; error?: string }) => {
          settled = true;
          if (m.plan) resolve(m.plan);
          else reject(new Error(`checking the import failed: ${m.error}`));
          void w.terminate();
        });
        w.once("error", (e) => {
          if (!settled) reject(e);
          settled = true;
        });
        w.once("exit", (code) => {
          if (!settled) reject(new Error(`the import checker stopped (exit ${code})`));
          settled = true;
        });
      }),
  );
}

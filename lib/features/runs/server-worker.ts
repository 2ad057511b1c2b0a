// The worker inside the Next server process (started from instrumentation.ts). One per process. Its loop never exits
// on an error (Worker.run retries with backoff); should it ever end unexpectedly it is started again, so a server
// never sits on "running" runs with no worker.
import { db } from "../../db";
import { Worker } from "./worker";
import { runsPlannedHere } from "./planning";
import { logger } from "../../log";

const g = globalThis as unknown as { __fofWorker?: Worker; __fofWorkerStopping?: boolean; __fofWorkerDone?: Promise<void> };

export function startServerWorker() {
  if (g.__fofWorker) return g.__fofWorker;
  let log = (m: string) => logger.info({ component: "worker" }, m);
  const start = (): Worker => {
    // It calls the rows of runs this process is planning as they are written (./planning.ts).
    const worker = new Worker(db(), { log: (m) => log(m), plannedHere: runsPlannedHere });
    const child = logger.child({ component: "worker", worker: worker.owner });
    log = (m) => child.info(m);
    g.__fofWorker = worker;
    // The HTTP server (scripts/serve.ts) waits for this on SIGTERM before it exits: the last results are written
    // and the leases given back, so other workers take over at once.
    g.__fofWorkerDone = worker
      .run()
      .catch((e) => log(`loop ended: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        if (g.__fofWorkerStopping) return;
        log("restarting in 2 s");
        setTimeout(start, 2_000).unref();
      });
    return worker;
  };
  const worker = start();
  const stop = () => {
    g.__fofWorkerStopping = true;
    g.__fofWorker?.stop();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return worker;
}

/**
 * The server's label worker (FOF_WORKER_LABEL=on|only): labels auto-labelled runs on onnxruntime-node in this
 * process. Without the models it logs why and does not start (the Label page still works); it stops with the server.
 */
export async function startServerLabelWorker() {
  const g2 = globalThis as unknown as { __fofLabelWorker?: Promise<unknown> };
  if (g2.__fofLabelWorker) return;
  const log = logger.child({ component: "label-worker" });
  g2.__fofLabelWorker = (async () => {
    const { labelWorkerFromEnv } = await import("../labelling/worker");
    const w = await labelWorkerFromEnv(db(), (m) => log.info(m));
    process.once("SIGTERM", () => w.stop());
    process.once("SIGINT", () => w.stop());
    await w.run();
  })().catch((e) => log.error(`not labelling: ${e instanceof Error ? e.message : String(e)}`));
}

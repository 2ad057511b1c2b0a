// The worker inside the Next server process (started from instrumentation.ts). One per process.
import { db } from "../db";
import { Worker } from "./worker";

const g = globalThis as unknown as { __fofWorker?: Worker };

export function startServerWorker() {
  if (g.__fofWorker) return g.__fofWorker;
  const worker = new Worker(db(), { log: (m) => console.error(`[worker] ${m}`) });
  g.__fofWorker = worker;
  worker.run().catch((e) => console.error(`[worker] stopped: ${e instanceof Error ? e.message : String(e)}`));
  const stop = () => worker.stop();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return worker;
}

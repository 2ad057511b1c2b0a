// A read thread (lib/server/offload.ts): takes one job at a time from the web server, runs it (lib/server/offload-jobs.ts)
// and answers with its value and the size of its JSON (what the server's cache counts). A domain error keeps its code.
import { parentPort } from "node:worker_threads";
import { DomainError } from "../core/errors";
import { OFFLOAD_JOBS, type OffloadJobs } from "./offload-jobs";

parentPort!.on("message", async (m: { id: number; name: keyof OffloadJobs; args: unknown }) => {
  try {
    const value = await (OFFLOAD_JOBS[m.name] as (a: unknown) => Promise<unknown>)(m.args);
    parentPort!.postMessage({ id: m.id, value, bytes: JSON.stringify(value)?.length ?? 0 });
  } catch (e) {
    parentPort!.postMessage({
      id: m.id,
      error: e instanceof DomainError ? { message: e.message, code: e.code } : { message: e instanceof Error ? e.message : String(e) },
    });
  }
});

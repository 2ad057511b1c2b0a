// The body of an import's check, run on a worker thread (lib/features/imports/check-thread.ts): archives inflated and
// spilled to disk, names mapped, every image read alone, checked by header, decoded and hashed — none of it on the
// web server's event loop. Its answer is the plan, with each item's bytes left on disk.
import { parentPort, workerData } from "node:worker_threads";
import { planImport, benchmarkStatistics, type UploadedFile } from "../../images/import";
import { validateImage } from "../../images/validate";
import { DEFAULT_SUITE_ID, suiteOf } from "../../suites";

interface Job {
  files: UploadedFile[];
  suiteId: string;
  spillDir: string;
}

async function main(job: Job) {
  const suite = suiteOf(job.suiteId);
  const content = suite.id === DEFAULT_SUITE_ID ? null : suite.content();
  const mapper = content ? { naming: suite.importer!.naming, target: (name: string) => suite.importer!.target(name, content) } : benchmarkStatistics();
  // This thread is the one to block: decode here rather than handing each image to yet another thread.
  return planImport(job.files, mapper, { spillDir: job.spillDir, validate: validateImage });
}

main(workerData as Job).then(
  (plan) => parentPort!.postMessage({ plan }),
  (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) }),
);

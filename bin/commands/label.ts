// `fof label <run>`: labels a run's faces on this machine and exits — the Label page's pipeline on onnxruntime-node,
// leasing from the same queue (so it runs beside Label tabs and other `fof label` processes on any host).
import { db, migrateAndSeed } from "../../lib/db";
import { env, faceChipMethod, verifiedFairFace } from "../../lib/env";
import { classifierStatus } from "../../lib/faces/provenance";
import { labelProgress } from "../../lib/features/results/run-results";
import { leaseImages, releaseLeases, saveLabels } from "../../lib/features/labelling/leases";
import { labellerModelFiles } from "../../lib/faces/model-files";
import { createNodeLabeller, LABEL_DEVICES, modelFile, type LabelDevice } from "../../lib/faces/node-labeller";
import { labelQueue } from "../../lib/features/labelling/queue";
import { projectRoot } from "../../lib/paths";

export interface LabelOptions {
  device?: string;
  threads?: string;
  batch?: string;
  detector?: string;
  classifier?: string;
  landmarker?: string;
  /** aligned (FairFace's chips, the default from FOF_FACE_CHIPS) or square */
  chips?: string;
}

/** The model files: given, else where the server finds them (FAIRFACE_MODEL_PATH, public/models …). */
export function modelPaths(opts: LabelOptions) {
  const e = env();
  const chips = opts.chips ? (opts.chips === "square" ? "square" : opts.chips === "aligned" ? "dlib-5pt" : null) : faceChipMethod(e);
  if (!chips) throw new Error("--chips: choose aligned or square");
  return labellerModelFiles({ cwd: projectRoot(), dataDir: e.dataDir, fairfacePath: e.FAIRFACE_MODEL_PATH }, chips, opts);
}

/**
 * Labels a run's images in this process until every one is labelled (waiting for images other labellers hold), or
 * until stopped by a signal (the batch in hand is written first). Returns what it did, for the caller to print.
 */
export async function labelHere(prisma: ReturnType<typeof db>, runId: string, opts: LabelOptions = {}) {
  const e = env();
  const device = (opts.device ?? e.FOF_LABEL_DEVICE) as LabelDevice;
  if (!LABEL_DEVICES.includes(device)) throw new Error(`--device: choose ${LABEL_DEVICES.join(" or ")}`);
  const threads = opts.threads ? Number(opts.threads) : e.FOF_LABEL_THREADS;
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) throw new Error("--threads: a whole number from 1 to 64");
  const batch = opts.batch ? Number(opts.batch) : 8;
  if (!Number.isInteger(batch) || batch < 1 || batch > 64) throw new Error("--batch: a whole number from 1 to 64");
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { id: true, modality: true } });
  if (!run) throw new Error(`no run ${runId}`);
  if (run.modality !== "t2i") throw new Error(`run ${runId} is not a text-to-image run: it has no faces to label`);
  const paths = modelPaths(opts);
  const labeller = await createNodeLabeller({
    detector: modelFile(paths.detector),
    classifier: modelFile(paths.classifier),
    landmarker: paths.landmarker ? modelFile(paths.landmarker) : null,
    device,
    threads,
  });
  process.stderr.write(
    `labelling with ${labeller.classifierFile.name} (sha256 ${labeller.classifierFile.sha256.slice(0, 12)}…) on ${labeller.chip === "dlib-5pt" ? "aligned chips" : "square crops"}, ${labeller.runtime}\n`,
  );
  // Ctrl-C / SIGTERM: finish the batch in hand (its labels are written), then stop; nothing is left leased.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const started = Date.now();
  try {
    const done = await labelQueue(prisma, { leaseImages, saveLabels, releaseLeases }, labeller, {
      dataDir: e.dataDir,
      runId,
      batch,
      leaseMs: e.FOF_LABEL_LEASE_MS,
      // The run is done when every image is labelled: images another labeller holds are waited for (its lease
      // expires if it died, and they are labelled here).
      waitForOthers: true,
      signal: stop.signal,
      onBatch: (p) => process.stderr.write(`\r${p.images.toLocaleString("en-US")} images, ${p.faces.toLocaleString("en-US")} faces`),
    });
    process.stderr.write("\n");
    const seconds = (Date.now() - started) / 1000;
    return {
      run: runId,
      labelled: done.images,
      faces: done.faces,
      refused: done.refused,
      seconds: Math.round(seconds * 10) / 10,
      imagesPerSecond: seconds > 0 ? Math.round((done.images / seconds) * 100) / 100 : null,
      classifier: {
        name: labeller.classifierFile.name,
        sha256: labeller.classifierFile.sha256,
        status: classifierStatus(labeller.classifierFile.sha256, verifiedFairFace()),
      },
      runtime: labeller.runtime,
    };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

export async function labelCommand(runId: string, opts: LabelOptions) {
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  try {
    const done = await labelHere(prisma, runId, opts);
    process.stdout.write(JSON.stringify({ ...done, progress: await labelProgress(prisma, runId) }) + "\n");
  } finally {
    await prisma.$disconnect();
  }
}

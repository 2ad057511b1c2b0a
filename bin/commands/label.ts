// `fof label <run>`: labels a run's faces on this machine and exits — the Label page's pipeline on onnxruntime-node,
// leasing from the same queue (so it runs beside Label tabs and other `fof label` processes on any host).
import { db, migrateAndSeed } from "../../lib/db";
import { env, faceChipMethod, verifiedFairFace } from "../../lib/env";
import { classifierStatus } from "../../lib/faces/provenance";
import { labelProgress } from "../../lib/features/results/run-results";
import { leaseImages, releaseLeases, saveLabels } from "../../lib/features/labelling/leases";
import { clipModelFiles, labellerModelFiles } from "../../lib/faces/model-files";
import { clipTextsFile, createNodeClip, type ClipLabeller } from "../../lib/faces/node-clip";
import { saveReadings } from "../../lib/features/labelling/readings";
import type { LabelInstrument } from "../../lib/faces/provenance";
import { createNodeLabeller, LABEL_DEVICES, modelFile, type LabelDevice, type NodeLabeller } from "../../lib/faces/node-labeller";
import { labelQueue } from "../../lib/features/labelling/queue";
import { projectRoot } from "../../lib/paths";
import { isContention } from "../../lib/db/retry";
import { progressLine } from "./progress";

export interface LabelOptions {
  device?: string;
  threads?: string;
  batch?: string;
  detector?: string;
  classifier?: string;
  landmarker?: string;
  /** aligned (FairFace's chips, the default from FOF_FACE_CHIPS) or square */
  chips?: string;
  /** CLIP runs: the vision tower and its text-embedding file (default: where the server finds them) */
  clipVision?: string;
  clipTexts?: string;
}

/** The model files: given, else where the server finds them (FAIRFACE_MODEL_PATH, public/models …). */
function modelPaths(opts: LabelOptions) {
  const e = env();
  const chips = opts.chips ? (opts.chips === "square" ? "square" : opts.chips === "aligned" ? "dlib-5pt-800" : null) : faceChipMethod(e);
  if (!chips) throw new Error("--chips: choose aligned or square");
  return labellerModelFiles({ cwd: projectRoot(), dataDir: e.dataDir, fairfacePath: e.FAIRFACE_MODEL_PATH }, chips, opts);
}

/** The files the run's instrument needs, checked before anything is generated or leased. */
export function instrumentFiles(instrument: LabelInstrument, opts: LabelOptions = {}) {
  if (instrument === "faces") return { kind: "faces" as const, ...modelPaths(opts) };
  const e = env();
  const clip = clipModelFiles({ cwd: projectRoot(), dataDir: e.dataDir }, opts);
  if (!clip)
    throw new Error(
      "this run is read with CLIP, and no CLIP instrument is installed: export it with the suite's tool (docs/operations.md, CLIP), or pass --clip-vision <file.onnx> --clip-texts <file.json>",
    );
  return { kind: "clip" as const, ...clip };
}

async function createLabeller(instrument: LabelInstrument, opts: LabelOptions, device: LabelDevice, threads: number): Promise<NodeLabeller | ClipLabeller> {
  const files = instrumentFiles(instrument, opts);
  if (files.kind === "clip") return createNodeClip({ vision: modelFile(files.vision), texts: clipTextsFile(files.texts), device, threads });
  return createNodeLabeller({
    detector: modelFile(files.detector),
    classifier: modelFile(files.classifier),
    landmarker: files.landmarker ? modelFile(files.landmarker) : null,
    device,
    threads,
  });
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
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { id: true, modality: true, labelInstrument: true } });
  if (!run) throw new Error(`no run ${runId}`);
  if (run.modality !== "t2i") throw new Error(`run ${runId} is not a text-to-image run: it has no faces to label`);
  const labeller = await createLabeller(run.labelInstrument === "clip" ? "clip" : "faces", opts, device, threads);
  process.stderr.write(
    labeller.kind === "faces"
      ? `labelling with ${labeller.classifierFile.name} (sha256 ${labeller.classifierFile.sha256.slice(0, 12)}…) on ${labeller.chip === "square" ? "square crops" : "aligned chips (pre-resized to 800 px, as predict.py)"}, ${labeller.runtime}\n`
      : `reading with CLIP ${labeller.visionFile.name} (sha256 ${labeller.visionFile.sha256.slice(0, 12)}…), texts from weights ${labeller.texts.weightsSha256.slice(0, 12)}…, ${labeller.runtime}\n`,
  );
  // Ctrl-C / SIGTERM: finish the batch in hand (its labels are written), then stop; nothing is left leased.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const started = Date.now();
  const progress = progressLine();
  try {
    const done = await labelQueue(prisma, { leaseImages, saveLabels, releaseLeases, saveReadings }, labeller, {
      dataDir: e.dataDir,
      runId,
      batch,
      leaseMs: e.FOF_LABEL_LEASE_MS,
      // The run is done when every image is labelled: images another labeller holds are waited for (its lease
      // expires if it died, and they are labelled here).
      waitForOthers: true,
      signal: stop.signal,
      onBatch: (p) => progress(`${p.images.toLocaleString("en-US")} images, ${p.faces.toLocaleString("en-US")} faces`),
    }).catch(async (e: unknown) => {
      progress.end();
      // Stopped (the database stayed locked past the patience, a model file failed…): say what is left and how to
      // finish it, never a raw driver message.
      const left = await prisma.image.count({ where: { runId, labelStatus: { in: ["unlabelled", "leased"] } } }).catch(() => null);
      const total = await prisma.image.count({ where: { runId } }).catch(() => null);
      const why = isContention(e)
        ? "the database stayed busy (another process held its write lock) for two minutes"
        : e instanceof Error
          ? e.message
          : String(e);
      throw new Error(
        `labelling stopped: ${why}.${left !== null && total !== null ? ` ${left.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} images of run ${runId} are not labelled yet` : ""}: finish them with \`fof label ${runId}\` (or on the Label page); what was labelled is kept.`,
      );
    });
    progress.end();
    const seconds = (Date.now() - started) / 1000;
    return {
      run: runId,
      labelled: done.images,
      faces: done.faces,
      refused: done.refused,
      seconds: Math.round(seconds * 10) / 10,
      imagesPerSecond: seconds > 0 ? Math.round((done.images / seconds) * 100) / 100 : null,
      ...(labeller.kind === "faces"
        ? {
            classifier: {
              name: labeller.classifierFile.name,
              sha256: labeller.classifierFile.sha256,
              status: classifierStatus(labeller.classifierFile.sha256, verifiedFairFace()),
            },
            chips: labeller.chip,
          }
        : { clip: { vision: labeller.visionFile.name, sha256: labeller.visionFile.sha256, weightsSha256: labeller.texts.weightsSha256 } }),
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

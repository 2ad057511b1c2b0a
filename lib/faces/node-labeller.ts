// Labelling without a browser: the Label page's pipeline (lib/faces/pipeline.ts — decode, detect, crop, classify)
// on onnxruntime-node, taking leases from the same queue and writing through the same validated path
// (leaseImages / saveLabels), so a page and any number of these workers on any hosts split a run, and a worker that
// dies leaves leases that expire and are labelled by others. CPU by default; CUDA where the host has its providers
// (FOF_LABEL_DEVICE=cuda; `npm rebuild onnxruntime-node --onnxruntime-node-install=cuda12`).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import type * as OrtWeb from "onnxruntime-web";
import type { PrismaClient } from "../../generated/prisma/client";
import { labelImage, loadLayout, assertDetector } from "./pipeline";
import type { FairFaceLayout } from "./classifier";
import type { RgbaImage } from "./image";
import { DEFAULT_DETECTION_THRESHOLD } from "./detector";
import type { LabelRuntime } from "./provenance";

type Ort = typeof OrtWeb;
type Session = OrtWeb.InferenceSession;

export const LABEL_DEVICES = ["cpu", "cuda"] as const;
export type LabelDevice = (typeof LABEL_DEVICES)[number];

export interface ModelFile {
  /** what labels record as their classifier (file name without extension) */
  name: string;
  bytes: Uint8Array;
  sha256: string;
}

export function modelFile(file: string): ModelFile {
  const bytes = readFileSync(file);
  return { name: path.basename(file).replace(/\.onnx$/i, ""), bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}

export interface NodeLabeller {
  ort: Ort;
  detector: Session;
  classifier: Session;
  layout: FairFaceLayout;
  classifierFile: ModelFile;
  detectorFile: ModelFile;
  /** what each label records as its runtime */
  labelRuntime: LabelRuntime;
  /** e.g. "node-cpu (2 threads)", for people */
  runtime: string;
}

/**
 * Loads onnxruntime-node and both models. Refuses a detector that is not UltraFace and a classifier whose outputs do
 * not have FairFace's shapes (ModelLayoutError), before anything is labelled.
 */
export async function createNodeLabeller(opts: { detector: ModelFile; classifier: ModelFile; device?: LabelDevice; threads?: number }): Promise<NodeLabeller> {
  // onnxruntime-node implements the same API as onnxruntime-web (onnxruntime-common): the pipeline takes either.
  const ort = (await import("onnxruntime-node")) as unknown as Ort;
  const device = opts.device ?? "cpu";
  const threads = Math.max(1, Math.min(64, opts.threads ?? 1));
  const options = {
    executionProviders: [device],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    logSeverityLevel: 3,
  } as unknown as OrtWeb.InferenceSession.SessionOptions;
  const detector = await ort.InferenceSession.create(opts.detector.bytes, options);
  assertDetector(detector);
  const classifier = await ort.InferenceSession.create(opts.classifier.bytes, options);
  const layout = loadLayout(classifier);
  return {
    ort,
    detector,
    classifier,
    layout,
    classifierFile: opts.classifier,
    detectorFile: opts.detector,
    labelRuntime: `node-${device}`,
    runtime: `node-${device} (${threads} thread${threads === 1 ? "" : "s"})`,
  };
}

/** A stored image file as RGBA pixels (the workbench stores PNG and JPEG only). */
export function decodeImage(bytes: Uint8Array, mimeType: string): RgbaImage {
  if (mimeType === "image/jpeg") {
    const j = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
    return { width: j.width, height: j.height, data: j.data };
  }
  if (mimeType === "image/png") {
    const p = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return { width: p.width, height: p.height, data: p.data };
  }
  throw new Error(`cannot decode ${mimeType}`);
}

/** One image's faces as saveLabels takes them. */
export async function labelPixels(l: NodeLabeller, img: RgbaImage, threshold = DEFAULT_DETECTION_THRESHOLD) {
  const faces = await labelImage(l.ort, l.detector, l.classifier, l.layout, img, threshold);
  return faces.map((f) => ({
    x1: f.x1,
    y1: f.y1,
    x2: f.x2,
    y2: f.y2,
    score: f.score,
    race: f.probabilities.race,
    gender: f.probabilities.gender,
    age: f.probabilities.age,
  }));
}

type Engine = Pick<typeof import("../engine"), "leaseImages" | "saveLabels" | "releaseLeases">;

export interface LabelProgress {
  images: number;
  faces: number;
  /** images another worker took back after our lease expired (refused by saveLabels) */
  refused: number;
}

/**
 * Labels images of a run (or of every run, without `runId`) until none is left to lease, a batch at a time. A batch
 * that fails is given back at once (not left to expire), and the error is thrown.
 */
export async function labelQueue(
  prisma: PrismaClient,
  engine: Engine,
  l: NodeLabeller,
  opts: {
    dataDir: string;
    runId?: string;
    /** only runs launched with "label automatically" (label workers) */
    autoLabel?: boolean;
    batch?: number;
    threshold?: number;
    /** how long an image stays ours before another labeller may take it (a killed labeller's images come back) */
    leaseMs?: number;
    /** images others hold: wait for them (they may die and their leases expire) rather than exit with them unlabelled */
    waitForOthers?: boolean;
    signal?: AbortSignal;
    onBatch?: (p: LabelProgress, batch: LabelProgress & { runIds: string[] }) => void;
  },
): Promise<LabelProgress> {
  const progress: LabelProgress = { images: 0, faces: 0, refused: 0 };
  const threshold = opts.threshold ?? DEFAULT_DETECTION_THRESHOLD;
  const scope = { ...(opts.runId ? { runId: opts.runId } : {}), ...(opts.autoLabel ? { run: { autoLabel: true } } : {}) };
  while (!opts.signal?.aborted) {
    const lease = await engine.leaseImages(
      prisma,
      { runId: opts.runId ?? null, autoLabel: opts.autoLabel ?? false, max: Math.max(1, Math.min(64, opts.batch ?? 8)) },
      opts.leaseMs,
    );
    if (!lease.images.length) {
      // An empty lease may only mean another labeller took the same free images first: try again while any is free.
      if (await prisma.image.count({ where: { ...scope, labelStatus: "unlabelled" } })) continue;
      // Nothing free. Images another labeller holds are labelled by it — or come back when its lease expires.
      if (!opts.waitForOthers || !(await prisma.image.count({ where: { ...scope, labelStatus: "leased" } }))) break;
      await new Promise((r) => setTimeout(r, Math.min(1_000, Math.max(100, (opts.leaseMs ?? 60_000) / 4))));
      continue;
    }
    try {
      const rows = await prisma.image.findMany({ where: { id: { in: lease.images.map((i) => i.id) } }, select: { id: true, path: true, mimeType: true } });
      const results = [];
      for (const row of rows) {
        const img = decodeImage(readFileSync(path.join(opts.dataDir, row.path)), row.mimeType);
        results.push({ imageId: row.id, faces: await labelPixels(l, img, threshold) });
      }
      const saved = await engine.saveLabels(prisma, {
        lease: lease.lease,
        classifier: { model: l.classifierFile.name, sha256: l.classifierFile.sha256 },
        detector: { model: l.detectorFile.name, sha256: l.detectorFile.sha256, threshold },
        runtime: l.labelRuntime,
        results,
      });
      progress.images += saved.saved;
      progress.faces += saved.faces;
      progress.refused += saved.refused.length;
      opts.onBatch?.(
        { ...progress },
        {
          images: saved.saved,
          faces: saved.faces,
          refused: saved.refused.length,
          runIds: [...new Set(lease.images.map((i) => i.runId).filter((x): x is string => !!x))],
        },
      );
    } catch (e) {
      await engine.releaseLeases(prisma, { leases: [lease.lease] }).catch(() => undefined);
      throw e;
    }
  }
  return progress;
}

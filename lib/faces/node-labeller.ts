// Labelling without a browser: the Label page's pipeline (lib/faces/pipeline.ts — decode, detect, crop, classify)
// on onnxruntime-node. The queue loop that takes leases from the same queue and writes through the same validated path
// (leaseImages / saveLabels) is lib/features/labelling/queue.ts, so a page and any number of these workers on any hosts split a run, and a worker that
// dies leaves leases that expire and are labelled by others. CPU by default; CUDA where the host has its providers
// (FOF_LABEL_DEVICE=cuda; `node node_modules/onnxruntime-node/script/install.js --onnxruntime-node-install=cuda12`).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import type * as OrtWeb from "onnxruntime-web";
import { labelImage, loadLayout, assertDetector } from "./pipeline";
import { assertLandmarker } from "./landmarks";
import type { FairFaceLayout } from "./classifier";
import type { RgbaImage } from "./image";
import { decodeWebp } from "../images/webp";
import { DEFAULT_DETECTION_THRESHOLD } from "./detector";
import { ALIGNED_CHIP, type ChipMethod, type LabelRuntime } from "./provenance";

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
  kind: "faces";
  ort: Ort;
  detector: Session;
  classifier: Session;
  layout: FairFaceLayout;
  classifierFile: ModelFile;
  detectorFile: ModelFile;
  /** the 68-point landmarker for FairFace's aligned chips; null = square crops */
  landmarker: Session | null;
  landmarkerFile: ModelFile | null;
  chip: ChipMethod;
  /** what each label records as its runtime */
  labelRuntime: LabelRuntime;
  /** e.g. "node-cpu (2 threads)", for people */
  runtime: string;
}

/**
 * Loads onnxruntime-node and the models. Refuses a detector that is not UltraFace, a landmarker that is not the
 * 68-point model and a classifier whose outputs do not have FairFace's shapes (ModelLayoutError), before anything is
 * labelled. With a landmarker, faces are classified on FairFace's aligned chips; without, on square crops.
 */
export async function createNodeLabeller(opts: {
  detector: ModelFile;
  classifier: ModelFile;
  landmarker?: ModelFile | null;
  device?: LabelDevice;
  threads?: number;
}): Promise<NodeLabeller> {
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
  const landmarker = opts.landmarker ? await ort.InferenceSession.create(opts.landmarker.bytes, options) : null;
  if (landmarker) assertLandmarker(landmarker);
  return {
    kind: "faces",
    ort,
    detector,
    classifier,
    layout,
    classifierFile: opts.classifier,
    detectorFile: opts.detector,
    landmarker,
    landmarkerFile: opts.landmarker ?? null,
    chip: landmarker ? ALIGNED_CHIP : "square",
    labelRuntime: `node-${device}`,
    runtime: `node-${device} (${threads} thread${threads === 1 ? "" : "s"})`,
  };
}

/** A stored image file as RGBA pixels, whatever the workbench stores (PNG, JPEG, WebP). */
export async function decodeStoredImage(bytes: Uint8Array, mimeType: string): Promise<RgbaImage> {
  if (mimeType === "image/webp") {
    const w = await decodeWebp(bytes);
    return { width: w.width, height: w.height, data: w.data };
  }
  return decodeImage(bytes, mimeType);
}

/** A PNG or JPEG file as RGBA pixels (decodeStoredImage also reads WebP). */
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

/** What saveLabels records of the instrument: classifier, detector, chip method (and landmarker), runtime. */
export function labellerProvenance(l: NodeLabeller, threshold: number) {
  return {
    classifier: { model: l.classifierFile.name, sha256: l.classifierFile.sha256 },
    detector: { model: l.detectorFile.name, sha256: l.detectorFile.sha256, threshold },
    chip: l.chip,
    ...(l.landmarkerFile ? { landmarker: { model: l.landmarkerFile.name, sha256: l.landmarkerFile.sha256 } } : {}),
    runtime: l.labelRuntime,
  };
}

/** One image's faces as saveLabels takes them. */
export async function labelPixels(l: NodeLabeller, img: RgbaImage, threshold = DEFAULT_DETECTION_THRESHOLD) {
  const faces = await labelImage(l.ort, l.detector, l.classifier, l.layout, img, threshold, l.landmarker);
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

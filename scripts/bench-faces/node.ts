// bench:faces' server rows: the same pipeline, models and photos on onnxruntime-node (fof label's runtime), in this
// process, CPU at 1 and N threads — beside the browser's WASM rows.
import { readFileSync } from "node:fs";
import path from "node:path";
import { classifyFaces, detectFaces } from "../../lib/faces/pipeline";
import { createNodeLabeller, decodeImage, modelFile } from "../../lib/faces/node-labeller";

export interface NodeBenchRow {
  label: string;
  faces: number;
  seconds: number;
  facesPerSecond: number;
  detectMsPerImage: number;
  classifyMsPerFace: number;
  firstFaceSeconds: number;
}

export async function nodeBench(opts: { detector: string; classifier: string; photos: string[]; faces: number; threads: number }): Promise<NodeBenchRow> {
  const t0 = performance.now();
  const l = await createNodeLabeller({ detector: modelFile(opts.detector), classifier: modelFile(opts.classifier), threads: opts.threads });
  const images = opts.photos.map((p) => decodeImage(readFileSync(p), p.endsWith(".jpg") ? "image/jpeg" : "image/png"));
  let detectMs = 0;
  let classifyMs = 0;
  let faces = 0;
  let images_ = 0;
  let firstFace = 0;
  // 2 warm-up images (not counted), then images until `faces` faces are classified.
  for (let i = 0; faces < opts.faces; i++) {
    const img = images[i % images.length];
    const a = performance.now();
    const boxes = await detectFaces(l.ort, l.detector, img);
    const b = performance.now();
    await classifyFaces(l.ort, l.classifier, l.layout, img, boxes);
    const c = performance.now();
    if (i === 0) firstFace = (c - t0) / 1000;
    if (i < 2) continue;
    detectMs += b - a;
    classifyMs += c - b;
    faces += boxes.length;
    images_++;
    if (!boxes.length && images_ > 10) throw new Error("no faces found in the benchmark photos");
  }
  const seconds = (detectMs + classifyMs) / 1000;
  return {
    label: `node CPU (onnxruntime-node), ${opts.threads} thread${opts.threads === 1 ? "" : "s"}`,
    faces,
    seconds,
    facesPerSecond: faces / seconds,
    detectMsPerImage: detectMs / images_,
    classifyMsPerFace: classifyMs / faces,
    firstFaceSeconds: firstFace,
  };
}

export const nodeBenchPhotos = (shared: string, files: string[]) => files.map((f) => path.join(shared, "test-images", f));

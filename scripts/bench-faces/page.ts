// Runs in the benchmark page: the Label page's pipeline (lib/faces) on one backend, timed.
import type * as OrtType from "onnxruntime-web";
import { classifyFaces, detectFaces, loadLayout } from "../../lib/faces/pipeline";
import type { RgbaImage } from "../../lib/faces/image";

type Ort = typeof OrtType;

async function decode(url: string): Promise<RgbaImage> {
  const bmp = await createImageBitmap(await (await fetch(url)).blob(), { colorSpaceConversion: "none", premultiplyAlpha: "none" });
  const canvas = new OffscreenCanvas(bmp.width, bmp.height);
  const ctx = canvas.getContext("2d")!;
  ctx.drawImage(bmp, 0, 0);
  return ctx.getImageData(0, 0, bmp.width, bmp.height);
}

async function bytes(url: string) {
  return new Uint8Array(await (await fetch(url)).arrayBuffer());
}

const t00 = performance.now();
/** Phase marks go to the console; the benchmark script forwards them, so a slow backend shows where it is. */
const phases: Record<string, number> = {};
function mark(phase: string) {
  phases[phase] = Math.round(performance.now() - t00);
  console.log(`[phase] ${phase} at ${(phases[phase] / 1000).toFixed(1)} s`);
}

export async function runBench(cfg: { ep: "wasm" | "webgpu"; threads: number; faces: number; images: string[] }) {
  // A runtime URL (not a bundled module), exactly as the Label page loads it.
  const url = "/ort/ort.webgpu.min.mjs";
  const ort = (await import(url)) as Ort;
  ort.env.wasm.wasmPaths = "/ort/";
  ort.env.wasm.numThreads = cfg.threads;
  let adapter = "";
  if (cfg.ep === "webgpu") {
    const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<{ info?: Record<string, string> } | null> } }).gpu;
    const a = await gpu?.requestAdapter();
    if (!a) throw new Error("no WebGPU adapter");
    adapter = [a.info?.vendor, a.info?.architecture].filter(Boolean).join(" / ");
  }
  const opts = { executionProviders: [cfg.ep], graphOptimizationLevel: "all" as const };
  const detector = await ort.InferenceSession.create(await bytes("/models/detector.onnx"), opts);
  mark("detector session");
  const classifier = await ort.InferenceSession.create(await bytes("/models/classifier.onnx"), opts);
  mark("classifier session");
  const layout = loadLayout(classifier);
  const images = await Promise.all(cfg.images.map(decode));
  const found: Awaited<ReturnType<typeof detectFaces>>[] = [];
  for (const img of images) found.push(await detectFaces(ort, detector, img));
  mark("first detections");
  if (found.every((f) => !f.length)) throw new Error("no face in the benchmark images");
  // Warm-up: first runs compile kernels (WebGPU) and fill caches.
  for (let i = 0; i < Math.min(2, images.length); i++) {
    await classifyFaces(ort, classifier, layout, images[i], found[i]);
    mark(`warm-up classification ${i + 1}`);
  }
  let faces = 0;
  let imagesDone = 0;
  let detectMs = 0;
  let classifyMs = 0;
  const t0 = performance.now();
  for (let i = 0; faces < cfg.faces; i++) {
    const img = images[i % images.length];
    const a = performance.now();
    const boxes = await detectFaces(ort, detector, img);
    const b = performance.now();
    await classifyFaces(ort, classifier, layout, img, boxes);
    classifyMs += performance.now() - b;
    detectMs += b - a;
    faces += boxes.length;
    imagesDone++;
    mark(`${faces} faces timed`);
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    faces,
    seconds,
    facesPerSecond: faces / seconds,
    detectMsPerImage: detectMs / imagesDone,
    classifyMsPerFace: classifyMs / faces,
    adapter,
    isolated: self.crossOriginIsolated,
    phases,
  };
}

(globalThis as unknown as { runBench: typeof runBench }).runBench = runBench;

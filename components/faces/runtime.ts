"use client";
// The browser side of the face pipeline, shared by the Label and Review pages: the onnxruntime-web runtime (served
// by the app from /ort), the backend probe, image decoding, and the FairFace file (the server's, else the copy the
// user chose and this browser keeps).
import { get as idbGet } from "idb-keyval";
import type * as OrtType from "onnxruntime-web";
import { loadLayout } from "@/lib/faces/pipeline";
import { assertLandmarker } from "@/lib/faces/landmarks";
import type { FairFaceLayout } from "@/lib/faces/classifier";
import type { RgbaImage } from "@/lib/faces/image";

export type Ort = typeof OrtType;
export type Session = OrtType.InferenceSession;
export type StoredModel = { name: string; sha256: string; bytes: ArrayBuffer; savedAt: string };
export interface LoadedClassifier {
  session: Session;
  layout: FairFaceLayout;
  sha256: string;
  source: "server" | "browser";
}

export const BROWSER_MODEL_KEY = "fof:fairface-model";

export async function loadOrt(): Promise<Ort> {
  // The runtime is served by the app from /ort (copied at install), never bundled or fetched from a CDN.
  const url = "/ort/ort.webgpu.min.mjs";
  const ort = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url)) as Ort;
  ort.env.wasm.wasmPaths = "/ort/";
  ort.env.wasm.numThreads = self.crossOriginIsolated ? Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1)) : 1;
  return ort;
}

type AdapterInfo = { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };

/**
 * The browser's WebGPU adapter, described, and whether it is a software one (SwiftShader, llvmpipe, a "fallback"
 * adapter): those run the models an order of magnitude slower than WASM on the same CPU (docs/BENCHMARKS.md), so
 * "auto" picks WASM over them; a real GPU gets WebGPU.
 */
export async function webgpuAdapter(): Promise<{ description: string; software: boolean } | null> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<{ info?: AdapterInfo; isFallbackAdapter?: boolean } | null> } }).gpu;
  if (!gpu) return null;
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return null;
    const info = adapter.info ?? {};
    const description = [info.vendor, info.architecture, info.description].filter(Boolean).join(" / ") || "adapter";
    const software =
      adapter.isFallbackAdapter === true ||
      info.isFallbackAdapter === true ||
      /swiftshader|llvmpipe|lavapipe|softpipe|software|basic render|warp/i.test(description);
    return { description, software };
  } catch {
    return null;
  }
}

export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.arrayBuffer();
}

/**
 * POSTs JSON; a 503 (the server's database is busy: nothing was written) is tried again after its Retry-After, a
 * few times, so a busy moment does not stop a labelling tab.
 */
export async function postJson<T>(url: string, body: unknown, { busyRetries = 5 }: { busyRetries?: number } = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const json = await res.json().catch(() => ({}));
    if (res.status === 503 && attempt < busyRetries) {
      const wait = Math.min(10, Number(res.headers.get("retry-after")) || 1) * 1000 * (1 + attempt);
      await new Promise((r) => setTimeout(r, wait));
      continue;
    }
    if (!res.ok) throw new Error(json.error ?? `${url}: HTTP ${res.status}`);
    return json as T;
  }
}

export async function decode(url: string): Promise<RgbaImage> {
  const blob = await (await fetch(url)).blob();
  const bmp = await createImageBitmap(blob, { colorSpaceConversion: "none", premultiplyAlpha: "none" });
  const canvas = new OffscreenCanvas(bmp.width, bmp.height);
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  if (!ctx) throw new Error("no 2D canvas");
  ctx.drawImage(bmp, 0, 0);
  bmp.close();
  const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return { data, width, height };
}

/**
 * FairFace for this page: the server's file when it has one, else the copy kept in this browser; null when neither
 * exists (nothing may then be labelled by a model). Throws when a file exists but is not FairFace-shaped.
 */
export async function loadFairFace(ort: Ort, ep: "webgpu" | "wasm"): Promise<LoadedClassifier | null> {
  const res = await fetch("/api/face-models/fairface");
  let bytes: ArrayBuffer;
  let source: LoadedClassifier["source"];
  // 204: the server has no FairFace file (an answer, not an error); 404 from an older server means the same.
  if (res.ok && res.status !== 204) {
    bytes = await res.arrayBuffer();
    source = "server";
  } else if (res.status === 204 || res.status === 404) {
    const stored = await idbGet<StoredModel>(BROWSER_MODEL_KEY);
    if (!stored) return null;
    bytes = stored.bytes;
    source = "browser";
  } else throw new Error(`FairFace model: HTTP ${res.status}`);
  const session = await ort.InferenceSession.create(new Uint8Array(bytes), { executionProviders: [ep], graphOptimizationLevel: "all" });
  try {
    return { session, layout: loadLayout(session), sha256: await sha256Hex(bytes), source };
  } catch (e) {
    await session.release();
    throw e;
  }
}

export interface LoadedLandmarker {
  session: Session;
  name: string;
  sha256: string;
}

/**
 * The 68-point landmarker for FairFace's aligned chips (installed beside the detector), refused when it is not the
 * expected model; null when the server has none (the page then says so, and labels nothing on square crops unasked).
 */
export async function loadLandmarker(ort: Ort, ep: "webgpu" | "wasm"): Promise<LoadedLandmarker | null> {
  const res = await fetch("/api/face-models/landmarker");
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`landmark model: HTTP ${res.status}`);
  const bytes = await res.arrayBuffer();
  const session = await ort.InferenceSession.create(new Uint8Array(bytes), { executionProviders: [ep], graphOptimizationLevel: "all" });
  try {
    assertLandmarker(session);
  } catch (e) {
    await session.release();
    throw e;
  }
  return { session, name: "face-landmarks-68", sha256: await sha256Hex(bytes) };
}

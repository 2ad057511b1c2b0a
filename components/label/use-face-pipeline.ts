"use client";
// The Label page's face pipeline in this browser: onnxruntime-web on WebGPU (a real GPU) or WASM, the detector from
// the server, the landmarker for FairFace's aligned chips, FairFace from the server or a copy kept in this browser
// (checked for FairFace's layout first).
import { del as idbDel, get as idbGet, set as idbSet } from "idb-keyval";
import { useCallback, useEffect, useRef, useState } from "react";
import { assertDetector, loadLayout } from "@/lib/faces/pipeline";
import type { FairFaceLayout } from "@/lib/faces/classifier";
import {
  BROWSER_MODEL_KEY,
  fetchBytes,
  loadLandmarker,
  loadOrt,
  sha256Hex,
  webgpuAdapter,
  type LoadedLandmarker,
  type Ort,
  type Session,
  type StoredModel,
} from "@/components/faces/runtime";
import type { ChipMethod } from "@/lib/faces/provenance";

export type Backend = { ep: "webgpu" | "wasm"; detail: string };
type ClassifierSource = { kind: "server" } | { kind: "browser"; name: string; savedAt: string };
export type PipelinePhase = "loading" | "need-model" | "ready" | "running" | "done" | "error";

export function useFacePipeline({
  detectorInstalled,
  chips,
  forcedBackend,
}: {
  detectorInstalled: boolean;
  /** how faces are cut for FairFace: its aligned chips (the default, needs the landmarker) or square crops */
  chips: ChipMethod;
  forcedBackend: "wasm" | "webgpu" | null;
}) {
  const ortRef = useRef<Ort | null>(null);
  const detectorRef = useRef<{ session: Session; sha256: string } | null>(null);
  const landmarkerRef = useRef<LoadedLandmarker | null>(null);
  const classifierRef = useRef<{ session: Session; layout: FairFaceLayout; sha256: string } | null>(null);
  const [backend, setBackend] = useState<Backend | null>(null);
  const [phase, setPhase] = useState<PipelinePhase>("loading");
  const [message, setMessage] = useState<string | null>(null);
  const [source, setSource] = useState<ClassifierSource | null>(null);
  const [layoutKind, setLayoutKind] = useState<string | null>(null);
  // What the page shows of the loaded classifier (the ref holds the session itself, for the loop).
  const [classifierSha256, setClassifierSha256] = useState<string | null>(null);

  const createSession = useCallback(async (bytes: ArrayBuffer | Uint8Array, ep: Backend["ep"]) => {
    const ort = ortRef.current!;
    return ort.InferenceSession.create(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), {
      executionProviders: [ep],
      graphOptimizationLevel: "all",
    });
  }, []);

  /** Loads a FairFace candidate and checks its layout; throws a readable error when it is not FairFace-shaped. */
  const loadClassifier = useCallback(
    async (bytes: ArrayBuffer, ep: Backend["ep"]) => {
      const session = await createSession(bytes, ep);
      let layout: FairFaceLayout;
      try {
        layout = loadLayout(session);
      } catch (e) {
        await session.release();
        throw e;
      }
      const sha256 = await sha256Hex(bytes);
      classifierRef.current = { session, layout, sha256 };
      setClassifierSha256(sha256);
      setLayoutKind(layout.kind === "single" ? "one output [N,18]" : "three heads (race 7, gender 2, age 9)");
    },
    [createSession],
  );

  // Start-up: runtime → backend → detector → classifier (server file, else the copy kept in this browser).
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        // Reached by client-side navigation, the page lacks its isolation headers: load it once in full.
        if (!self.crossOriginIsolated && !sessionStorage.getItem("fof:isolation-reload")) {
          sessionStorage.setItem("fof:isolation-reload", "1");
          location.reload();
          return;
        }
        sessionStorage.removeItem("fof:isolation-reload");
        if (!detectorInstalled) {
          setPhase("error");
          setMessage("The face detector is not installed. Run `npm run setup:models` on the server (it takes the file from the npm registry), then reload.");
          return;
        }
        const ort = await loadOrt();
        ortRef.current = ort;
        const adapter = forcedBackend === "wasm" ? null : await webgpuAdapter();
        // Auto: WebGPU on a real GPU only; a software adapter is slower than WASM (?backend=webgpu still forces it).
        const useGpu = adapter && (forcedBackend === "webgpu" || !adapter.software);
        const wasmDetail = `SIMD, ${ort.env.wasm.numThreads} thread${ort.env.wasm.numThreads === 1 ? "" : "s"}${self.crossOriginIsolated ? "" : " (page not cross-origin isolated)"}`;
        let b: Backend = useGpu
          ? { ep: "webgpu", detail: `${adapter.description}${forcedBackend === "webgpu" ? ", forced" : ""}` }
          : { ep: "wasm", detail: adapter?.software ? `${wasmDetail} — software WebGPU adapter (${adapter.description}) skipped` : wasmDetail };
        if (forcedBackend === "wasm") b = { ...b, detail: `${b.detail}, forced` };
        const detBytes = await fetchBytes("/api/face-models/detector");
        let det: Session;
        try {
          det = await createSession(detBytes, b.ep);
        } catch (e) {
          if (b.ep !== "webgpu") throw e;
          // A WebGPU adapter that cannot run the model: fall back to WASM and say so.
          b = { ep: "wasm", detail: `SIMD, ${ort.env.wasm.numThreads} thread(s) — WebGPU failed: ${(e as Error).message}` };
          det = await createSession(detBytes, b.ep);
        }
        assertDetector(det);
        detectorRef.current = { session: det, sha256: await sha256Hex(detBytes) };
        if (chips !== "square") {
          landmarkerRef.current = await loadLandmarker(ort, b.ep);
          if (!landmarkerRef.current) {
            setPhase("error");
            setMessage(
              "The landmark model for FairFace's aligned chips is not installed. Run `npm run setup:models` on the server (it takes the file from the npm registry), then reload.",
            );
            return;
          }
        }
        if (cancelled) return;
        setBackend(b);
        // The server's FairFace file when it has one (204 when it has none), else the copy kept in this browser.
        const res = await fetch("/api/face-models/fairface");
        if (res.ok && res.status !== 204) {
          await loadClassifier(await res.arrayBuffer(), b.ep);
          setSource({ kind: "server" });
          setPhase("ready");
          return;
        }
        if (res.status !== 204 && res.status !== 404) throw new Error(`FairFace model: HTTP ${res.status}`);
        const stored = await idbGet<StoredModel>(BROWSER_MODEL_KEY);
        if (stored) {
          try {
            await loadClassifier(stored.bytes, b.ep);
            setSource({ kind: "browser", name: stored.name, savedAt: stored.savedAt });
            setPhase("ready");
            return;
          } catch (e) {
            setMessage(`The model kept in this browser no longer loads (${(e as Error).message}); choose the file again.`);
          }
        }
        setPhase("need-model");
      } catch (e) {
        if (!cancelled) {
          setPhase("error");
          setMessage(`Could not start the face pipeline: ${(e as Error).message}`);
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [detectorInstalled, chips, forcedBackend, createSession, loadClassifier]);

  async function chooseFile(file: File | undefined) {
    if (!file || !backend) return;
    setMessage(null);
    try {
      const bytes = await file.arrayBuffer();
      await loadClassifier(bytes, backend.ep);
      const savedAt = new Date().toISOString();
      await idbSet(BROWSER_MODEL_KEY, { name: file.name, sha256: classifierRef.current!.sha256, bytes, savedAt } satisfies StoredModel);
      setSource({ kind: "browser", name: file.name, savedAt });
      setPhase("ready");
    } catch (e) {
      setMessage(`“${file.name}” cannot be used as FairFace: ${(e as Error).message}`);
    }
  }

  async function forget() {
    await idbDel(BROWSER_MODEL_KEY);
    classifierRef.current = null;
    setClassifierSha256(null);
    setSource(null);
    setPhase("need-model");
  }

  return {
    ortRef,
    detectorRef,
    landmarkerRef,
    classifierRef,
    classifierSha256,
    backend,
    phase,
    setPhase,
    message,
    setMessage,
    source,
    layoutKind,
    chooseFile,
    forget,
  };
}

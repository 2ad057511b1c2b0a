"use client";

import { del as idbDel, get as idbGet, set as idbSet } from "idb-keyval";
import { useCallback, useEffect, useRef, useState } from "react";
import { DEFAULT_DETECTION_THRESHOLD } from "@/lib/faces/detector";
import { assertDetector, labelImage, loadLayout } from "@/lib/faces/pipeline";
import type { FairFaceLayout } from "@/lib/faces/classifier";
import { applyLabelDisplay, FAIRFACE_DISPLAY } from "@/lib/suites/label-display";
import type { LabelDisplay } from "@/lib/suites/types";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import {
  BROWSER_MODEL_KEY,
  decode,
  fetchBytes,
  loadOrt,
  postJson,
  sha256Hex,
  webgpuAdapter,
  type Ort,
  type Session,
  type StoredModel,
} from "@/components/faces/runtime";
import { Input } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

type Backend = { ep: "webgpu" | "wasm"; detail: string };
type ClassifierSource = { kind: "server" } | { kind: "browser"; name: string; savedAt: string };
interface Leased {
  id: string;
  suiteId: string;
  url: string;
  width: number;
  height: number;
  statisticId: string;
  test: string;
  level: string;
}
interface LastImage {
  url: string;
  width: number;
  height: number;
  faces: Array<{ x1: number; y1: number; x2: number; y2: number; labels: string[]; score: number }>;
  /** how the labels were read: the image's suite's classes */
  mapping: string;
}

const BATCH = 4;

/** Gives this tab's leases back; keepalive lets the request outlive a closing tab (sent as JSON, same origin). */
function releaseLeases(leases: Set<string>) {
  if (!leases.size) return;
  const body = JSON.stringify({ leases: [...leases].slice(-64) });
  leases.clear();
  void fetch("/api/label/release", { method: "POST", keepalive: true, headers: { "content-type": "application/json" }, body }).catch(() => undefined);
}

export function Labeller({
  runId,
  detectorInstalled,
  forcedBackend,
  initialTodo,
  initialTotal,
}: {
  runId: string | null;
  detectorInstalled: boolean;
  forcedBackend: "wasm" | "webgpu" | null;
  initialTodo: number;
  initialTotal: number;
}) {
  // The lease tokens this tab holds (issued by the server with each batch): results and releases carry them.
  const leasesRef = useRef<Set<string>>(new Set());
  const ortRef = useRef<Ort | null>(null);
  const detectorRef = useRef<{ session: Session; sha256: string } | null>(null);
  const classifierRef = useRef<{ session: Session; layout: FairFaceLayout; sha256: string } | null>(null);
  const runningRef = useRef(false);
  const [backend, setBackend] = useState<Backend | null>(null);
  const [phase, setPhase] = useState<"loading" | "need-model" | "ready" | "running" | "done" | "error">("loading");
  const [message, setMessage] = useState<string | null>(null);
  const [source, setSource] = useState<ClassifierSource | null>(null);
  const [layoutKind, setLayoutKind] = useState<string | null>(null);
  const [stats, setStats] = useState({ images: 0, faces: 0, noFace: 0, activeMs: 0, todo: initialTodo });
  const [imageErrors, setImageErrors] = useState<string[]>([]);
  const [last, setLast] = useState<LastImage | null>(null);

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
      classifierRef.current = { session, layout, sha256: await sha256Hex(bytes) };
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
  }, [detectorInstalled, forcedBackend, createSession, loadClassifier]);

  // Leases go back when the tab closes, so another tab can label those images at once.
  useEffect(() => {
    const release = () => releaseLeases(leasesRef.current);
    window.addEventListener("pagehide", release);
    return () => window.removeEventListener("pagehide", release);
  }, []);

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
    setSource(null);
    setPhase("need-model");
  }

  async function start() {
    const ort = ortRef.current;
    const det = detectorRef.current;
    const cls = classifierRef.current;
    if (!ort || !det || !cls || !backend) return;
    // What every label records: the classifier as this page names it, the detector's checksum, the runtime.
    const classifierName = source?.kind === "browser" ? source.name.replace(/\.onnx$/i, "").slice(0, 80) || "fairface" : "fairface";
    runningRef.current = true;
    setPhase("running");
    setMessage(null);
    try {
      while (runningRef.current) {
        const lease = await postJson<{ lease: string; images: Leased[]; displays: Record<string, LabelDisplay>; remaining: number }>("/api/label/lease", {
          runId,
          max: BATCH,
        });
        if (lease.images.length) leasesRef.current.add(lease.lease);
        setStats((s) => ({ ...s, todo: lease.remaining }));
        if (!lease.images.length) {
          setPhase("done");
          break;
        }
        const results = [];
        for (const im of lease.images) {
          const t0 = performance.now();
          try {
            const img = await decode(im.url);
            const faces = await labelImage(ort, det.session, cls.session, cls.layout, img, DEFAULT_DETECTION_THRESHOLD);
            results.push({
              imageId: im.id,
              faces: faces.map((f) => ({
                x1: f.x1,
                y1: f.y1,
                x2: f.x2,
                y2: f.y2,
                score: Math.min(1, f.score),
                race: f.probabilities.race,
                gender: f.probabilities.gender,
                age: f.probabilities.age,
              })),
            });
            const ms = performance.now() - t0;
            setStats((s) => ({
              ...s,
              images: s.images + 1,
              faces: s.faces + faces.length,
              noFace: s.noFace + (faces.length ? 0 : 1),
              activeMs: s.activeMs + ms,
            }));
            setLast({
              url: im.url,
              width: img.width,
              height: img.height,
              faces: faces.map((f) => ({
                x1: f.x1,
                y1: f.y1,
                x2: f.x2,
                y2: f.y2,
                score: f.score,
                labels: applyLabelDisplay(lease.displays[im.suiteId] ?? FAIRFACE_DISPLAY, f.probabilities),
              })),
              mapping: (lease.displays[im.suiteId] ?? FAIRFACE_DISPLAY).mapping,
            });
          } catch (e) {
            // Left leased: it returns to the queue when the lease expires (or this tab stops), and is reported here.
            setImageErrors((list) => [...list, `${im.id}: ${(e as Error).message}`]);
          }
        }
        if (results.length) {
          const saved = await postJson<{ saved: number; refused: string[] }>("/api/label/results", {
            lease: lease.lease,
            classifier: { model: classifierName, sha256: cls.sha256 },
            detector: { model: "ultraface-rfb-320", sha256: det.sha256, threshold: DEFAULT_DETECTION_THRESHOLD },
            runtime: `browser-${backend.ep}`,
            results,
          });
          if (results.length === lease.images.length) leasesRef.current.delete(lease.lease);
          if (saved.refused.length)
            setImageErrors((list) => [...list, ...saved.refused.map((id) => `${id}: lease lost (another tab labelled it); not saved twice`)]);
        }
      }
    } catch (e) {
      setMessage(`Labelling stopped: ${(e as Error).message}`);
      setPhase("ready");
    } finally {
      runningRef.current = false;
      setPhase((p) => (p === "running" ? "ready" : p));
      releaseLeases(leasesRef.current);
    }
  }

  const facesPerSecond = stats.activeMs > 0 ? stats.faces / (stats.activeMs / 1000) : 0;
  const imagesPerSecond = stats.activeMs > 0 ? stats.images / (stats.activeMs / 1000) : 0;
  const labelledTotal = initialTotal - stats.todo;
  const pct = initialTotal ? (labelledTotal / initialTotal) * 100 : 0;

  return (
    <div className="space-y-6">
      <Card
        title="Face pipeline"
        description="UltraFace RFB-320 (threshold 0.95, NMS, square crops with 25 % margin) → FairFace ResNet-34 (224 × 224). Runs in this browser."
      >
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs text-slate-500">Backend</dt>
            <dd data-testid="backend">
              {backend ? `${backend.ep === "webgpu" ? "WebGPU" : "WASM"} — ${backend.detail}` : phase === "error" ? "–" : "starting…"}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Classifier</dt>
            <dd data-testid="classifier">
              {source?.kind === "server" && `FairFace (server file) · ${layoutKind}`}
              {source?.kind === "browser" && (
                <>
                  {source.name} (kept in this browser) · {layoutKind}{" "}
                  <button type="button" onClick={forget} className="text-xs text-indigo-700 underline">
                    forget
                  </button>
                </>
              )}
              {!source && (phase === "need-model" ? <Badge tone="danger">FairFace model not installed</Badge> : "–")}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Weights (sha256)</dt>
            <dd className="font-mono text-xs">{classifierRef.current?.sha256.slice(0, 16) ?? "–"}</dd>
          </div>
        </dl>
        {message && <Alert className="mt-3">{message}</Alert>}
      </Card>

      {phase === "need-model" && (
        <Card title="FairFace model not installed" className="border-amber-300">
          <div className="space-y-3 text-sm" data-testid="model-missing">
            <p>
              Faces are labelled only by the real classifier (or by a person on the Review page): without it, nothing is labelled and images stay “unlabelled”.
              Install it one of these ways:
            </p>
            <ol className="list-decimal space-y-1 pl-5">
              <li>
                On the server: set <code>FAIRFACE_MODEL_URL</code> and <code>FAIRFACE_MODEL_SHA256</code> and run <code>npm run setup:models</code> (downloads
                and checks the file into <code>public/models/fairface.onnx</code>).
              </li>
              <li>
                On the server: copy a FairFace ONNX export to <code>public/models/fairface.onnx</code>, <code>&lt;FOF_DATA_DIR&gt;/models/fairface.onnx</code>,
                or point <code>FAIRFACE_MODEL_PATH</code> at it.
              </li>
              <li>
                In this browser: choose the <code>.onnx</code> file. It is checked (input [N,3,224,224]; one output [N,18] or race/gender/age heads) and kept in
                this browser’s storage.
              </li>
            </ol>
            <div>
              <label htmlFor="fairface-file" className="font-medium">
                FairFace model file (.onnx)
              </label>
              <Input id="fairface-file" type="file" accept=".onnx" onChange={(e) => chooseFile(e.target.files?.[0])} className="mt-1 block text-sm" />
            </div>
          </div>
        </Card>
      )}

      <Card
        title="Labelling"
        actions={
          phase === "running" ? (
            <Button variant="secondary" onClick={() => (runningRef.current = false)}>
              Pause
            </Button>
          ) : (
            <Button onClick={start} disabled={(phase !== "ready" && phase !== "done") || stats.todo === 0}>
              {stats.todo === 0 ? "Nothing left to label" : stats.images ? "Resume labelling" : "Start labelling"}
            </Button>
          )
        }
      >
        <div
          role="progressbar"
          aria-label="Images labelled"
          aria-valuemin={0}
          aria-valuemax={initialTotal}
          aria-valuenow={labelledTotal}
          className="h-3 w-full overflow-hidden rounded bg-slate-100"
        >
          <div className="h-full bg-indigo-600 transition-all" style={{ width: `${pct}%` }} />
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
          <div>
            <dt className="text-xs text-slate-500">Still to label</dt>
            <dd className="tabular-nums" data-testid="todo">
              {stats.todo.toLocaleString("en-US")} of {initialTotal.toLocaleString("en-US")} images
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Labelled in this tab</dt>
            <dd className="tabular-nums" data-testid="labelled">
              {stats.images} images · {stats.faces} faces
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">No face found</dt>
            <dd className="tabular-nums">{stats.noFace} images</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Speed</dt>
            <dd className="tabular-nums" data-testid="speed">
              {facesPerSecond.toFixed(1)} faces/s · {imagesPerSecond.toFixed(1)} images/s
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Status</dt>
            <dd data-testid="label-phase">{phase === "done" ? "all images labelled" : phase}</dd>
          </div>
        </dl>
        {imageErrors.length > 0 && (
          <details className="mt-3 text-sm text-rose-800" open>
            <summary>{imageErrors.length} image(s) not labelled</summary>
            <ul className="list-disc pl-5 text-xs">
              {imageErrors.slice(-20).map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </details>
        )}
        {last && (
          <figure className="mt-4">
            <div className="relative inline-block max-w-xs">
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src={last.url} alt="The last one labelled, with its face boxes" className="block h-auto w-full rounded" />
              {last.faces.map((f, i) => (
                <div
                  key={i}
                  className="absolute border-2 border-emerald-400"
                  style={{
                    left: `${(f.x1 / last.width) * 100}%`,
                    top: `${(f.y1 / last.height) * 100}%`,
                    width: `${((f.x2 - f.x1) / last.width) * 100}%`,
                    height: `${((f.y2 - f.y1) / last.height) * 100}%`,
                  }}
                >
                  <span className="absolute -top-5 left-0 whitespace-nowrap rounded bg-emerald-600 px-1 text-[10px] text-white">{f.labels.join(", ")}</span>
                </div>
              ))}
            </div>
            <figcaption className="text-xs text-slate-500">
              Last image: {last.faces.length} face(s) (shown in {last.mapping})
            </figcaption>
          </figure>
        )}
      </Card>
    </div>
  );
}

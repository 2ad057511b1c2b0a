"use client";
// This tab's labelling loop: lease a batch, label each image in the browser, send the results with what made them
// (classifier, detector checksum, runtime), until nothing is left or the person pauses. Leases go back when the
// loop stops or the tab closes, so another labeller takes those images at once.
import { useEffect, useRef, useState } from "react";
import { DEFAULT_DETECTION_THRESHOLD } from "@/lib/faces/detector";
import { labelImage } from "@/lib/faces/pipeline";
import { ALIGNED_CHIP } from "@/lib/faces/provenance";
import { applyLabelDisplay, FAIRFACE_DISPLAY } from "@/lib/suites/label-display";
import type { LabelDisplay } from "@/lib/suites/types";
import { decode, postJson } from "@/components/faces/runtime";
import type { useFacePipeline } from "./use-face-pipeline";

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
export interface LastImage {
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

export function useLabellingLoop(runId: string | null, initialTodo: number, pipeline: ReturnType<typeof useFacePipeline>) {
  // The lease tokens this tab holds (issued by the server with each batch): results and releases carry them.
  const leasesRef = useRef<Set<string>>(new Set());
  const runningRef = useRef(false);
  const [stats, setStats] = useState({ images: 0, faces: 0, noFace: 0, activeMs: 0, todo: initialTodo });
  const [imageErrors, setImageErrors] = useState<string[]>([]);
  const [last, setLast] = useState<LastImage | null>(null);

  // Leases go back when the tab closes, so another tab can label those images at once.
  useEffect(() => {
    const release = () => releaseLeases(leasesRef.current);
    window.addEventListener("pagehide", release);
    return () => window.removeEventListener("pagehide", release);
  }, []);

  async function start() {
    const ort = pipeline.ortRef.current;
    const det = pipeline.detectorRef.current;
    const cls = pipeline.classifierRef.current;
    const lm = pipeline.landmarkerRef.current;
    const { backend, source, setPhase, setMessage } = pipeline;
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
            const faces = await labelImage(ort, det.session, cls.session, cls.layout, img, DEFAULT_DETECTION_THRESHOLD, lm?.session);
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
            classifier: { model: classifierName, sha256: cls.sha256, source: source?.kind === "browser" ? "browser" : "server" },
            detector: { model: "ultraface-rfb-320", sha256: det.sha256, threshold: DEFAULT_DETECTION_THRESHOLD },
            ...(lm ? { chip: ALIGNED_CHIP, landmarker: { model: lm.name, sha256: lm.sha256 } } : { chip: "square" }),
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

  const pause = () => {
    runningRef.current = false;
  };
  return { start, pause, stats, imageErrors, last };
}

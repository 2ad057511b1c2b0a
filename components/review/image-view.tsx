"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { classifyDrawnFace } from "@/lib/faces/pipeline";
import { ALIGNED_CHIP, isAlignedChip } from "@/lib/faces/provenance";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { decode, loadFairFace, loadLandmarker, loadOrt, type LoadedClassifier, type LoadedLandmarker, type Ort } from "@/components/faces/runtime";
import { keyAction, keyHint, type LabelSets } from "@/lib/review/label-set";
import { fetchImage, patchFace, postFace, storeServerFaces, type ReviewFace } from "./api";
import type { ReviewActions } from "./use-review-actions";
import { attributesOf, labelText } from "./label-text";
import { Dialog } from "@/components/ui/dialog";

type Box = { x1: number; y1: number; x2: number; y2: number };

// FairFace (and the landmarker for its aligned chips) is loaded once per page, on the first hand-drawn face (WASM:
// one face at a time needs no GPU).
let classifier: Promise<{ ort: Ort; c: LoadedClassifier; lm: LoadedLandmarker | null } | null> | null = null;
function browserClassifier() {
  classifier ??= (async () => {
    const ort = await loadOrt();
    const c = await loadFairFace(ort, "wasm");
    return c ? { ort, c, lm: await loadLandmarker(ort, "wasm") } : null;
  })().catch((e) => {
    classifier = null;
    throw e;
  });
  return classifier;
}

/** The whole image with every box: draw a box to add a missed face, delete (or restore) a false detection. */
export function ImageView({
  imageId,
  focusFaceId,
  annotator,
  labelSets,
  actions,
  onClose,
}: {
  imageId: string;
  focusFaceId: number | null;
  annotator: string;
  labelSets: LabelSets;
  actions: ReviewActions;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const image = useQuery({ queryKey: ["review-image", imageId], queryFn: () => fetchImage(imageId, annotator) });
  const [sel, setSel] = useState<number | null>(focusFaceId);
  const [draft, setDraft] = useState<Box | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const data = image.data;
  const faces = data?.faces ?? [];
  const selected = faces.find((f) => f.id === sel);

  async function classify(f: ReviewFace) {
    try {
      const loaded = await browserClassifier();
      if (!loaded) {
        setNote(`No FairFace model on the server or in this browser: label this face by hand (${keyHint(labelSets[f.suite] ?? [])}).`);
        return;
      }
      setNote("Classifying the new face in this browser…");
      const rgba = await decode(f.imageUrl);
      // Cut the way the run's faces were cut (its first classified face says how); a run without any yet: FairFace's
      // aligned chip when the server serves the landmarker (FOF_FACE_CHIPS=aligned), else a square crop.
      const lm = data?.chip === "square" ? null : loaded.lm;
      if (isAlignedChip(data?.chip) && !lm) throw new Error("this run's faces are aligned chips, and the landmark model is not installed");
      const p = await classifyDrawnFace(loaded.ort, loaded.c.session, loaded.c.layout, rgba, f.box, lm?.session);
      storeServerFaces(qc, [
        await patchFace(f.id, {
          annotator,
          classifier: { model: "fairface", sha256: loaded.c.sha256 },
          ...(lm ? { chip: ALIGNED_CHIP, landmarker: { model: lm.name, sha256: lm.sha256 } } : { chip: "square" }),
          runtime: "browser-wasm",
          probabilities: { race: p.race, gender: p.gender, age: p.age },
        }),
      ]);
      setNote("Added and classified: check its labels like any other face.");
    } catch (e) {
      setNote(`The new face was added but not classified (${(e as Error).message}): label it by hand.`);
    }
  }

  const add = useMutation({
    mutationFn: (box: Box) => postFace(annotator, imageId, box),
    onSuccess: (f) => {
      storeServerFaces(qc, [f]);
      actions.recordAdd(f.id);
      setSel(f.id);
      void classify(f);
    },
    onError: (e) => actions.fail(`Box not added: ${(e as Error).message}`),
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const k = e.key;
      let handled = true;
      const idx = faces.findIndex((f) => f.id === sel);
      if (k === "Escape" || k === "o") onClose();
      else if ((e.ctrlKey || e.metaKey) && (k === "z" || k === "Z")) actions.undo();
      else if (e.ctrlKey || e.metaKey || e.altKey) handled = false;
      else if (k === "ArrowRight" || k === "ArrowDown" || k === "Tab") setSel(faces[(idx + 1) % faces.length]?.id ?? sel);
      else if (k === "ArrowLeft" || k === "ArrowUp") setSel(faces[(idx - 1 + faces.length) % faces.length]?.id ?? sel);
      else if (k === "u" || k === "Backspace") actions.undo();
      else if (!selected) handled = false;
      else if (k === "Delete") actions.setDeleted(selected, !selected.deleted);
      else if (k === "a" || k === "Enter") actions.accept([selected]);
      else if (keyAction(labelSets[selected.suite] ?? [], k)) {
        const act = keyAction(labelSets[selected.suite] ?? [], k)!;
        actions.setLabel(selected, act.attribute, act.value);
      } else if (k === "x") actions.toggleNotAFace(selected);
      else handled = false;
      if (handled) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  });

  const toImage = (e: ReactPointerEvent) => {
    const r = svgRef.current!.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * (data?.width ?? 1), y: ((e.clientY - r.top) / r.height) * (data?.height ?? 1) };
  };
  const box = (a: { x: number; y: number }, b: { x: number; y: number }): Box => ({
    x1: Math.min(a.x, b.x),
    y1: Math.min(a.y, b.y),
    x2: Math.max(a.x, b.x),
    y2: Math.max(a.y, b.y),
  });

  return (
    // The kit's dialog traps the focus and closes on a click outside; keys (Escape included) are handled above.
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Whole image"
      bare
      className="flex max-h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] max-w-5xl flex-col gap-3 p-4 lg:flex-row"
    >
      <div className="relative min-w-0 flex-1">
        {data ? (
          <div
            className="relative mx-auto"
            style={{ aspectRatio: `${data.width} / ${data.height}`, maxHeight: "75vh", maxWidth: `calc(75vh * ${data.width / data.height})` }}
          >
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={data.url} alt="Generated output, with every face box" className="absolute inset-0 h-full w-full select-none" draggable={false} />
            <svg
              ref={svgRef}
              data-testid="image-canvas"
              viewBox={`0 0 ${data.width} ${data.height}`}
              className="absolute inset-0 h-full w-full cursor-crosshair touch-none"
              onPointerDown={(e) => {
                if (e.button !== 0) return;
                svgRef.current?.setPointerCapture(e.pointerId);
                start.current = toImage(e);
                setDraft(box(start.current, start.current));
              }}
              onPointerMove={(e) => start.current && setDraft(box(start.current, toImage(e)))}
              onPointerUp={(e) => {
                const a = start.current;
                start.current = null;
                setDraft(null);
                if (!a) return;
                const b = box(a, toImage(e));
                if (b.x2 - b.x1 < 8 || b.y2 - b.y1 < 8) return;
                if (!annotator) return actions.fail("Sign in first: every change is stored under your account.");
                add.mutate(b);
              }}
            >
              {faces.map((f) => (
                <rect
                  key={f.id}
                  data-testid="image-box"
                  data-face-id={f.id}
                  data-deleted={f.deleted ? "true" : undefined}
                  x={f.box.x1}
                  y={f.box.y1}
                  width={f.box.x2 - f.box.x1}
                  height={f.box.y2 - f.box.y1}
                  fill="transparent"
                  strokeWidth={Math.max(2, data.width / 250)}
                  strokeDasharray={f.deleted ? "8 6" : undefined}
                  className={cn(
                    f.deleted ? "stroke-slate-400" : f.source === "manual" ? "stroke-sky-400" : "stroke-emerald-400",
                    f.id === sel && "stroke-indigo-600",
                  )}
                  onPointerDown={(e) => {
                    e.stopPropagation();
                    setSel(f.id);
                  }}
                />
              ))}
              {draft && (
                <rect
                  x={draft.x1}
                  y={draft.y1}
                  width={draft.x2 - draft.x1}
                  height={draft.y2 - draft.y1}
                  fill="rgba(99,102,241,0.15)"
                  stroke="#4f46e5"
                  strokeWidth={2}
                />
              )}
            </svg>
          </div>
        ) : (
          <p className="text-sm text-slate-600">{image.isError ? `Could not load the image: ${(image.error as Error).message}` : "Loading…"}</p>
        )}
        <p className="mt-2 text-xs text-slate-500">
          Drag on the image to add a face the detector missed. Arrows pick a box; labelling keys work on the picked box; Del deletes or restores it; Esc closes.
        </p>
      </div>
      <div className="w-full space-y-2 text-sm lg:w-64">
        <div className="flex items-center justify-between">
          <h2 className="font-semibold">Faces in this image</h2>
          <Button variant="ghost" onClick={onClose} aria-label="Close">
            ✕
          </Button>
        </div>
        {note && (
          <p className="rounded bg-sky-50 px-2 py-1 text-xs text-sky-900" data-testid="image-note">
            {note}
          </p>
        )}
        <ul className="space-y-1">
          {faces.map((f, i) => (
            <li
              key={f.id}
              data-testid="image-face"
              data-face-id={f.id}
              className={cn("rounded border px-2 py-1 text-xs", f.id === sel ? "border-indigo-500" : "border-slate-200", f.deleted && "opacity-50")}
            >
              <button type="button" className="w-full text-left" onClick={() => setSel(f.id)}>
                <span className="font-medium">
                  #{i + 1} {f.source === "manual" ? "drawn" : "detected"}
                  {f.deleted ? " · deleted" : ""}
                </span>
                <span className="block">model: {labelText(f.prediction, attributesOf(labelSets, f.suite))}</span>
                <span className="block">me: {labelText(f.mine, attributesOf(labelSets, f.suite))}</span>
              </button>
              <button type="button" className="mt-1 text-indigo-700 underline" onClick={() => actions.setDeleted(f, !f.deleted)}>
                {f.deleted ? "Restore detection" : "Delete detection"}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  );
}

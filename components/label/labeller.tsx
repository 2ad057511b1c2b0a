"use client";
// The Label page: this browser labels a run's faces (or every run's) with the face pipeline, a batch at a time.

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Alert } from "@/components/ui/alert";
import type { ChipMethod } from "@/lib/faces/provenance";
import { useFacePipeline } from "./use-face-pipeline";
import { useLabellingLoop } from "./use-labelling-loop";
import { LastImageFigure, ModelMissing } from "./labeller-parts";
import { ProgressBar } from "@/components/ui/progress";

export function Labeller({
  runId,
  detectorInstalled,
  chips,
  forcedBackend,
  initialTodo,
  initialTotal,
}: {
  runId: string | null;
  detectorInstalled: boolean;
  chips: ChipMethod;
  forcedBackend: "wasm" | "webgpu" | null;
  initialTodo: number;
  initialTotal: number;
}) {
  const pipeline = useFacePipeline({ detectorInstalled, chips, forcedBackend });
  const { backend, phase, message, source, layoutKind, chooseFile, forget, classifierSha256 } = pipeline;
  const { start, pause, stats, imageErrors, last } = useLabellingLoop(runId, initialTodo, pipeline);

  const facesPerSecond = stats.activeMs > 0 ? stats.faces / (stats.activeMs / 1000) : 0;
  const imagesPerSecond = stats.activeMs > 0 ? stats.images / (stats.activeMs / 1000) : 0;
  const labelledTotal = initialTotal - stats.todo;

  return (
    <div className="space-y-6">
      <Card
        title="Face pipeline"
        description={`UltraFace RFB-320 (threshold 0.95, NMS) → ${chips !== "square" ? "the image resized to 800 px on its longer side (dlib's resize_image, as FairFace's predict.py) → 68 landmarks → FairFace's aligned chips (dlib's get_face_chip: 300 px, padding 0.25 → 224)" : "square crops with 25 % margin (FOF_FACE_CHIPS=square: not FairFace's aligned chips)"} → FairFace ResNet-34. Runs in this browser.`}
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
            <dd className="font-mono text-xs">{classifierSha256?.slice(0, 16) ?? "–"}</dd>
          </div>
        </dl>
        {message && <Alert className="mt-3">{message}</Alert>}
      </Card>

      {phase === "need-model" && <ModelMissing chooseFile={chooseFile} />}

      <Card
        title="Labelling"
        actions={
          phase === "running" ? (
            <Button variant="secondary" onClick={pause}>
              Pause
            </Button>
          ) : (
            <Button onClick={start} disabled={(phase !== "ready" && phase !== "done") || stats.todo === 0}>
              {stats.todo === 0 ? "Nothing left to label" : stats.images ? "Resume labelling" : "Start labelling"}
            </Button>
          )
        }
      >
        <ProgressBar label="Images labelled" value={labelledTotal} max={initialTotal} tone="indigo" />
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
        {last && <LastImageFigure last={last} />}
      </Card>
    </div>
  );
}

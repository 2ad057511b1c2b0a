"use client";

// A text-to-image run's faces: how far labelling has got, who labels (label workers for a run launched with "label
// automatically", else the Label page), and what labelled the faces so far (classifier, detector, runtime).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RunSummary } from "@/lib/features/results/summary";
import { changeAutoLabel } from "@/app/runs/[id]/actions";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ProvenanceBadge, ProvenanceDetails } from "@/components/faces/provenance";
import { Alert } from "@/components/ui/alert";
import { ProgressBar } from "@/components/ui/progress";
import { useMay } from "@/components/layout/viewer-permissions";

type Labelling = NonNullable<RunSummary["labelling"]>;

export function LabellingCard({ runId, labelling, imported, canManage }: { runId: string; labelling: Labelling; imported: boolean; canManage: boolean }) {
  const done = labelling.labelled + labelling.noFace;
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const toggle = useMutation({
    mutationFn: async (on: boolean) => {
      const r = await changeAutoLabel({ runId, on });
      if (!r.ok) throw new Error(r.error);
    },
    onMutate: () => setError(null),
    onError: (e) => setError((e as Error).message),
    onSettled: () => qc.invalidateQueries({ queryKey: ["run", runId] }),
  });
  const waiting = labelling.unlabelled > 0;
  const clip = labelling.instrument === "clip";
  // Only what this viewer's role may follow, and only what there is to do: no "Label faces" without an image.
  const may = { label: useMay("faces.label"), review: useMay("faces.review"), import: useMay("images.import") };
  const hasImages = labelling.images > 0;
  return (
    <Card
      title={clip ? "Images read with CLIP" : "Faces"}
      description={
        clip
          ? "Launched with the CLIP instrument (the suite's own): each whole image is read by CLIP zero-shot — on the Label page, by label workers on a host with the CLIP files (“label automatically”), or by `fof label <run>`. No face is detected; nothing to review."
          : labelling.autoLabel
            ? "Labelled automatically: label workers (onnxruntime-node) detect and classify faces as images arrive. The Label page can help; reviewers correct labels on Review."
            : "Faces are detected and classified with FairFace in the browser, on the Label page — or by label workers once “label automatically” is on."
      }
      actions={
        <div className="flex flex-wrap gap-2">
          {imported && may.import && (
            <a href={`/runs/import?run=${runId}`} className="rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
              Import more
            </a>
          )}
          {canManage && (
            <button
              type="button"
              disabled={toggle.isPending}
              onClick={() => toggle.mutate(!labelling.autoLabel)}
              className="rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:opacity-50"
            >
              {labelling.autoLabel ? "Stop labelling automatically" : "Label automatically"}
            </button>
          )}
          {clip && may.label && waiting && (
            // A full page load: the Label page needs its own cross-origin isolation headers.
            <a href={`/label?run=${runId}`} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
              Read with CLIP
            </a>
          )}
          {!clip && may.review && labelling.faces > 0 && (
            <a href={`/review?runId=${runId}`} className="rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
              Review faces
            </a>
          )}
          {!clip && may.label && hasImages && waiting && (
            // A full page load: the Label page needs its own cross-origin isolation headers.
            <a href={`/label?run=${runId}`} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700">
              Label faces
            </a>
          )}
        </div>
      }
    >
      <p className="mb-2 flex flex-wrap items-center gap-2 text-sm" data-testid="labelling-mode">
        {labelling.autoLabel ? (
          labelling.labelWorkers > 0 ? (
            <Badge tone="info">{`label automatically · ${labelling.labelWorkers} label worker${labelling.labelWorkers === 1 ? "" : "s"} running`}</Badge>
          ) : (
            <Badge tone={waiting ? "warning" : "neutral"}>label automatically · no label worker running</Badge>
          )
        ) : clip ? (
          <Badge tone={waiting ? "warning" : "neutral"}>read with CLIP</Badge>
        ) : (
          <Badge>labelled on the Label page</Badge>
        )}
        {labelling.autoLabel && waiting && labelling.labelWorkers === 0 && (
          <span className="text-amber-800">Images wait until a label worker starts (FOF_WORKER_LABEL=on, or `fof worker --label`).</span>
        )}
        <ProvenanceBadge p={labelling.provenance} />
      </p>
      {error && (
        <Alert compact className="mb-2">
          {error}
        </Alert>
      )}
      <ProgressBar label="Images labelled" value={done} max={labelling.images} />
      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-6" data-testid="labelling">
        {(
          [
            ["Images", labelling.images],
            [clip ? "Read by CLIP" : "Labelled (with faces)", labelling.labelled],
            ["No face (excluded)", labelling.noFace],
            ["Not labelled yet", labelling.unlabelled],
            ["Faces", labelling.faces],
            ["Reviewed by people", labelling.reviewedFaces],
          ] as const
        ).map(([label, n]) => (
          <div key={label}>
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="tabular-nums">{n.toLocaleString("en-US")}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-3 border-t border-slate-100 pt-3">
        <ProvenanceDetails p={labelling.provenance} />
      </div>
    </Card>
  );
}

import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { env, faceChipMethod } from "@/lib/env";
import { labellingQueue } from "@/lib/features/labelling/leases";
import { clipModelFiles, locateFaceModel } from "@/lib/faces/model-files";
import { ClipLabeller } from "@/components/label/clip-labeller";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Labeller } from "@/components/label/labeller";
import { pageGuard } from "@/app/guard";
import { Select } from "@/components/ui/input";

export const metadata: Metadata = { title: "Label faces" };

export default async function LabelPage({ searchParams }: { searchParams: Promise<{ run?: string; backend?: string }> }) {
  await pageGuard("faces.label", "/label");
  await connection();
  const { run, backend } = await searchParams;
  const e = env();
  const where = { cwd: process.cwd(), dataDir: e.dataDir, fairfacePath: e.FAIRFACE_MODEL_PATH };
  const all = await labellingQueue(db());
  // This page runs the face pipeline; runs launched with CLIP are read by label workers (fof label, fof worker --label).
  const queue = all.filter((q) => q.instrument === "faces");
  const clipRuns = all.filter((q) => q.instrument === "clip");
  const selected = run ? queue.find((q) => q.id === run) : null;
  const clipSelected = run ? clipRuns.find((q) => q.id === run) : null;
  const clipInstalled = !!clipModelFiles(where);
  const scope = selected ? [selected] : queue;
  const total = scope.reduce((a, q) => a + q.total, 0);
  const todo = scope.reduce((a, q) => a + q.todo, 0);
  return (
    <>
      <PageHeader
        title="Label faces"
        description="Detects every face in the generated or imported images and classifies it with FairFace, in this browser. Work is leased in small batches: open several tabs to go faster; nothing is labelled twice."
      />
      {/* A plain GET form (full page load) keeps this page cross-origin isolated for multi-threaded WASM. */}
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3 text-sm">
        <div>
          <label htmlFor="label-run" className="block text-xs font-medium text-slate-600">
            Images of
          </label>
          <Select id="label-run" name="run" defaultValue={selected?.id ?? ""} className="rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">all runs ({queue.reduce((a, q) => a + q.todo, 0)} to label)</option>
            {queue.map((q) => (
              <option key={q.id} value={q.id}>
                {q.name} ({q.todo} of {q.total} to label)
              </option>
            ))}
          </Select>
        </div>
        <div>
          <label htmlFor="label-backend" className="block text-xs font-medium text-slate-600">
            Backend
          </label>
          <Select
            id="label-backend"
            name="backend"
            defaultValue={backend === "wasm" || backend === "webgpu" ? backend : ""}
            className="rounded-md border border-slate-300 px-2 py-1.5"
          >
            <option value="">Auto: WebGPU on a GPU, else WASM</option>
            <option value="wasm">WASM only</option>
            <option value="webgpu">WebGPU, even a software adapter</option>
          </Select>
        </div>
        <button type="submit" className="rounded-md px-3 py-1.5 font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
          Apply
        </button>
      </form>
      {clipRuns.some((q) => q.todo > 0) && (
        <p className="mb-4 text-sm text-slate-600" data-testid="clip-runs">
          {clipRuns.filter((q) => q.todo > 0).length} run(s) launched with the CLIP instrument (FAIntbench&apos;s own) are read by CLIP, not the face pipeline:
          open one here (
          {clipRuns
            .filter((q) => q.todo > 0)
            .slice(0, 5)
            .map((q, i) => (
              <span key={q.id}>
                {i > 0 && ", "}
                <a className="text-indigo-700 underline" href={`/label?run=${q.id}`}>
                  {q.name}
                </a>
              </span>
            ))}
          ), or run <code>fof label &lt;run&gt;</code> / <code>fof worker --label</code> on a host with the CLIP files.
        </p>
      )}
      {clipSelected ? (
        clipInstalled ? (
          <ClipLabeller runId={clipSelected.id} initialTodo={clipSelected.todo} initialTotal={clipSelected.total} />
        ) : (
          <EmptyState title="This run is read with CLIP, and CLIP is not installed here">
            Its images are read by CLIP on whole images (FAIntbench&apos;s instrument), not by the face pipeline: install CLIP&apos;s two files
            (docs/operations.md) and reload, or run <code>fof label {clipSelected.id}</code> on a host that has them.
          </EmptyState>
        )
      ) : run && !selected ? (
        <EmptyState title="That run has no images">Import images or run a text-to-image model first.</EmptyState>
      ) : total === 0 ? (
        <EmptyState title="No images to label yet">Import images (Runs → Import images) or launch a text-to-image run.</EmptyState>
      ) : (
        <Labeller
          key={`${selected?.id ?? "all"}-${backend ?? ""}`}
          runId={selected?.id ?? null}
          detectorInstalled={!!locateFaceModel("detector", where)}
          chips={faceChipMethod(e)}
          forcedBackend={backend === "wasm" || backend === "webgpu" ? backend : null}
          initialTodo={todo}
          initialTotal={total}
        />
      )}
    </>
  );
}

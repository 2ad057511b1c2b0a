"use client";
// Importing images made without an API: choose files, a folder or zips, check the mapping in the browser, then upload
// and store them as a run (all or nothing).

import { useMemo, useRef, useState, useTransition } from "react";
import { type ImportProblem, type NameMapping } from "@/lib/images/import-names";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useHydrated } from "@/components/ui/use-hydrated";
import { Input, Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";
import { mappingCells, readSelection, type Picked } from "./selection";
import { uploadBatch } from "./upload";
import { ImportOutcome, MappingPreview, type ImportState } from "./import-parts";

export function ImportForm({
  models,
  runs,
  defaultRunId,
  statistics,
  suites,
}: {
  models: Array<{ slug: string; label: string; provider: string }>;
  runs: Array<{ id: string; name: string; model: string; suite: string }>;
  defaultRunId: string | null;
  statistics: Array<{ id: string; name: string }>;
  /** suites whose images can be imported, the default (FACT-OR-FAIR, with its own naming scheme) first */
  suites: Array<{ id: string; name: string; naming: string; /** it has a CLIP instrument (its paper's) */ clip: boolean }>;
}) {
  const hydrated = useHydrated();
  const [state, setState] = useState<ImportState>({});
  const [pending, setPending] = useState(false);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  // The selection already imported: the button stays off until new files are chosen (a batch is imported once).
  const [imported, setImported] = useState(false);
  const busy = useRef(false);
  const defaultRun = runs.find((r) => r.id === defaultRunId);
  const [model, setModel] = useState(defaultRun?.model ?? models.find((m) => m.provider === "import")?.slug ?? models[0].slug);
  const [runId, setRunId] = useState(defaultRun?.id ?? "");
  const [suite, setSuite] = useState(defaultRun?.suite ?? suites[0].id);
  const suiteNaming = suite === suites[0].id ? null : (suites.find((s) => s.id === suite)?.naming ?? null);
  const [runName, setRunName] = useState("");
  const [instrument, setInstrument] = useState<"faces" | "clip">("faces");
  const suiteHasClip = !!suites.find((s) => s.id === suite)?.clip;
  const [picked, setPicked] = useState<Picked[]>([]);
  const [preview, setPreview] = useState<NameMapping | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [, startPreview] = useTransition();
  const resolver = useMemo(() => {
    const ids = new Set(statistics.map((s) => s.id));
    const byName = new Map(statistics.map((s) => [s.name.toLowerCase(), s.id]));
    return { ids, resolve: (s: string) => (ids.has(s) ? s : byName.get(s.trim().toLowerCase())) };
  }, [statistics]);
  const statName = useMemo(() => new Map(statistics.map((s) => [s.id, s.name])), [statistics]);

  function choose(list: FileList | null) {
    const files = [...(list ?? [])].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
    setPicked(files);
    setPreview(null);
    setPreviewError(null);
    setImported(false);
    setState({});
    startPreview(async () => {
      try {
        const mapping = await readSelection(files, suiteNaming, resolver);
        setPreview(mapping);
      } catch (e) {
        setPreviewError(`could not read the selection: ${(e as Error).message}`);
      }
    });
  }

  const cells = useMemo(() => mappingCells(preview), [preview]);
  const totalBytes = picked.reduce((a, p) => a + p.file.size, 0);
  const ready = preview && preview.targets.size > 0 && preview.problems.length === 0 && !imported;
  const modelRuns = runs.filter((r) => r.model === model && r.suite === suite);

  /** Opens an upload, streams each file to the server's disk with progress, then commits the batch once. */
  async function submit() {
    if (busy.current || !ready) return;
    busy.current = true;
    setPending(true);
    setState({});
    try {
      const r = await uploadBatch({ model, suite, runId, runName, instrument: suiteHasClip ? instrument : "faces", picked }, setProgress);
      setImported(true);
      setState({
        ok: true,
        runId: r.runId,
        imported: r.imported,
        skipped: r.skipped,
        message: `Imported ${r.imported} image${r.imported === 1 ? "" : "s"} (mapped by ${r.mappedBy}).`,
      });
    } catch (e) {
      setState({ message: (e as Error).message, problems: (e as { problems?: ImportProblem[] }).problems });
    } finally {
      busy.current = false;
      setPending(false);
      setProgress(null);
    }
  }

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-hydrated={hydrated || undefined}
      className="space-y-6"
      noValidate
    >
      <ImportOutcome state={state} />

      <Card title="1. Where the images go">
        <div className="grid gap-3 text-sm sm:grid-cols-4">
          <div>
            <label htmlFor="import-suite" className="font-medium">
              Suite
            </label>
            <Select
              id="import-suite"
              value={suite}
              onChange={(e) => {
                setSuite(e.target.value);
                setInstrument("faces");
                setRunId("");
                setPicked([]);
                setPreview(null);
                setState({});
              }}
              className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
            >
              {suites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <label htmlFor="import-model" className="font-medium">
              Model
            </label>
            <Select
              id="import-model"
              value={model}
              onChange={(e) => {
                setModel(e.target.value);
                setRunId("");
              }}
              className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
            >
              {models.map((m) => (
                <option key={m.slug} value={m.slug}>
                  {m.label} ({m.slug})
                </option>
              ))}
            </Select>
          </div>
          <div>
            <label htmlFor="import-run" className="font-medium">
              Run
            </label>
            <Select
              id="import-run"
              value={runId}
              onChange={(e) => setRunId(e.target.value)}
              className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
            >
              <option value="">A new run</option>
              {modelRuns.map((r) => (
                <option key={r.id} value={r.id}>
                  Add to: {r.name}
                </option>
              ))}
            </Select>
          </div>
          {!runId && (
            <div>
              <label htmlFor="import-run-name" className="font-medium">
                Run name
              </label>
              <Input
                id="import-run-name"
                value={runName}
                onChange={(e) => setRunName(e.target.value)}
                placeholder="optional"
                className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
              />
            </div>
          )}
          {!runId && suiteHasClip && (
            <div>
              <label htmlFor="import-instrument" className="font-medium">
                Instrument
              </label>
              <Select
                id="import-instrument"
                value={instrument}
                onChange={(e) => setInstrument(e.target.value === "clip" ? "clip" : "faces")}
                className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
              >
                <option value="faces">Faces (detector → FairFace)</option>
                <option value="clip">CLIP on whole images (the paper&apos;s)</option>
              </Select>
            </div>
          )}
        </div>
      </Card>

      <Card
        title="2. Images"
        description={
          suiteNaming ? (
            <>Name files {suiteNaming}. PNG, JPEG or WebP, checked by content; up to 25 MiB and 8192 px a side each, 5,000 files and 1 GiB per import.</>
          ) : (
            <>
              Name files <code>&lt;test&gt;/&lt;statistic-id&gt;/&lt;level&gt;/&lt;any&gt;.png</code> (folders) or{" "}
              <code>&lt;test&gt;__&lt;statistic-id&gt;__&lt;level&gt;__&lt;n&gt;.png</code>, or include a <code>manifest.json</code> (
              <code>
                [{"{"}&quot;file&quot;, &quot;test&quot;, &quot;statistic&quot;, &quot;level&quot;{"}"}]
              </code>
              ). PNG, JPEG or WebP, checked by content; up to 25 MiB and 8192 px a side each, 5,000 files and 1 GiB per import.
            </>
          )
        }
      >
        <div className="flex flex-wrap gap-4 text-sm">
          <div>
            <label htmlFor="import-files" className="font-medium">
              Files or zip archives
            </label>
            <Input
              id="import-files"
              type="file"
              multiple
              accept="image/png,image/jpeg,image/webp,.zip,application/zip,.json"
              onChange={(e) => choose(e.target.files)}
              className="mt-1 block text-sm"
            />
          </div>
          <div>
            <label htmlFor="import-folder" className="font-medium">
              A folder
            </label>
            <Input
              id="import-folder"
              type="file"
              multiple
              onChange={(e) => choose(e.target.files)}
              className="mt-1 block text-sm"
              {...({ webkitdirectory: "", directory: "" } as Record<string, string>)}
            />
          </div>
        </div>
        {picked.length > 0 && (
          <p className="mt-2 text-xs text-slate-600">
            {picked.length} file{picked.length === 1 ? "" : "s"} chosen, {(totalBytes / 1024 / 1024).toFixed(1)} MB
            {totalBytes > 1024 * 1024 * 1024 && <span className="text-rose-700"> — over the 1 GiB import limit: split the set (e.g. by test)</span>}
          </p>
        )}
      </Card>

      {previewError && <Alert compact>{previewError}</Alert>}
      {preview && <MappingPreview preview={preview} cells={cells} suiteNaming={suiteNaming} statName={statName} />}

      <div className="flex items-center gap-3">
        <Button type="submit" disabled={!ready || pending}>
          {pending ? "Importing…" : imported ? "Imported" : ready ? `Import ${preview.targets.size} images` : "Import"}
        </Button>
        {progress && (
          <span className="text-sm text-slate-600" aria-live="polite">
            <progress className="mr-2 align-middle" max={progress.total || 1} value={progress.sent} aria-label="Upload progress" />
            {(progress.sent / 1024 / 1024).toFixed(1)} of {(progress.total / 1024 / 1024).toFixed(1)} MB sent
          </span>
        )}
      </div>
    </form>
  );
}

"use client";

import Link from "next/link";
import { unzipSync } from "fflate";
import { useMemo, useRef, useState, useTransition } from "react";
import {
  ImportNameError,
  mapImportNames,
  mapSuiteNames,
  MANIFEST_NAME,
  type ImportProblem,
  type ImportTarget,
  type NameMapping,
} from "@/lib/images/import-names";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { useHydrated } from "@/components/ui/use-hydrated";
import { Input, Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

interface Picked {
  file: File;
  path: string;
}

/** What the preview knows about a zip without inflating its images: entry names, and the manifest's text. */
async function zipListing(file: File): Promise<{ names: string[]; manifests: Map<string, string> }> {
  const names: string[] = [];
  const entries = unzipSync(new Uint8Array(await file.arrayBuffer()), {
    filter: (e) => {
      names.push(e.name);
      return e.name === MANIFEST_NAME || e.name.endsWith(`/${MANIFEST_NAME}`);
    },
  });
  return { names, manifests: new Map(Object.entries(entries).map(([k, v]) => [k, new TextDecoder().decode(v)])) };
}

const isZip = (p: Picked) => /\.zip$/i.test(p.path);

interface ImportState {
  ok?: boolean;
  message?: string;
  problems?: ImportProblem[];
  skipped?: ImportProblem[];
  runId?: string;
  imported?: number;
}

/**
 * Same content under two names — loose files and entries inside zips alike — found in the browser (SHA-256) before
 * anything is uploaded. Only files whose size another file shares are read and hashed (zip entries: their sizes from
 * the central directory, then only those entries inflated).
 */
async function duplicateContent(files: Picked[]): Promise<ImportProblem[]> {
  const isImage = (name: string) => !name.endsWith("/") && !name.endsWith(MANIFEST_NAME);
  const sizes = new Map<number, number>();
  const count = (n: number) => sizes.set(n, (sizes.get(n) ?? 0) + 1);
  const zips: Array<{ p: Picked; bytes: Uint8Array; entries: Array<{ name: string; size: number }> }> = [];
  for (const p of files) {
    if (p.path.endsWith(MANIFEST_NAME)) continue;
    if (!isZip(p)) {
      count(p.file.size);
      continue;
    }
    const bytes = new Uint8Array(await p.file.arrayBuffer());
    const entries: Array<{ name: string; size: number }> = [];
    unzipSync(bytes, {
      filter: (e) => {
        if (isImage(e.name)) entries.push({ name: e.name, size: e.originalSize });
        return false; // sizes only: nothing inflated
      },
    });
    for (const e of entries) count(e.size);
    zips.push({ p, bytes, entries });
  }
  const shared = (n: number) => (sizes.get(n) ?? 0) > 1;
  const seen = new Map<string, string>();
  const problems: ImportProblem[] = [];
  const check = async (name: string, data: BufferSource) => {
    const digest = await crypto.subtle.digest("SHA-256", data);
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const twin = seen.get(hex);
    if (twin) problems.push({ name, message: `same content as ${twin}` });
    else seen.set(hex, name);
  };
  for (const p of files) if (!isZip(p) && !p.path.endsWith(MANIFEST_NAME) && shared(p.file.size)) await check(p.path, await p.file.arrayBuffer());
  for (const z of zips) {
    const wanted = new Set(z.entries.filter((e) => shared(e.size)).map((e) => e.name));
    if (!wanted.size) continue;
    const inflated = unzipSync(z.bytes, { filter: (e) => wanted.has(e.name) });
    for (const [name, data] of Object.entries(inflated)) await check(`${z.p.path}/${name}`, data as Uint8Array<ArrayBuffer>);
  }
  return problems;
}

async function call<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const body = (await res.json().catch(() => ({}))) as T & { error?: string; problems?: ImportProblem[] };
  if (!res.ok) throw Object.assign(new Error(body.error ?? `HTTP ${res.status}`), { problems: body.problems });
  return body;
}

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
  suites: Array<{ id: string; name: string; naming: string }>;
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
        const names: string[] = [];
        const manifests = new Map<string, string>();
        for (const p of files) {
          if (isZip(p)) {
            const z = await zipListing(p.file);
            names.push(...z.names.filter((n) => !n.endsWith("/")));
            for (const [k, v] of z.manifests) manifests.set(k, v);
          } else {
            names.push(p.path);
            if (p.path === MANIFEST_NAME || p.path.endsWith(`/${MANIFEST_NAME}`)) manifests.set(p.path, await p.file.text());
          }
        }
        // Another suite's rule needs its content, which stays on the server: the preview groups files by their
        // prompt folder, and the server checks every name when the batch is stored (all or nothing).
        const mapping = suiteNaming
          ? mapSuiteNames(names, {
              naming: suiteNaming,
              target: (n) => {
                const parts = n.split("/");
                if (parts.length < 2) throw new ImportNameError(`not in a prompt folder (${suiteNaming})`);
                return { test: "", statisticId: parts[parts.length - 2], level: "" };
              },
            })
          : mapImportNames(names, (n) => manifests.get(n) ?? "", resolver);
        mapping.problems.push(...(await duplicateContent(files)));
        setPreview(mapping);
      } catch (e) {
        setPreviewError(`could not read the selection: ${(e as Error).message}`);
      }
    });
  }

  const cells = useMemo(() => {
    const counts = new Map<string, { target: ImportTarget; n: number }>();
    for (const t of preview?.targets.values() ?? []) {
      const k = `${t.test}|${t.statisticId}|${t.level}`;
      counts.set(k, { target: t, n: (counts.get(k)?.n ?? 0) + 1 });
    }
    return [...counts.values()].sort(
      (a, b) =>
        a.target.statisticId.localeCompare(b.target.statisticId) || a.target.test.localeCompare(b.target.test) || a.target.level.localeCompare(b.target.level),
    );
  }, [preview]);
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
      const json = { "content-type": "application/json" };
      const { uploadId } = await call<{ uploadId: string }>("/api/imports", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ model, suite, runId: runId || null, runName: runName || null }),
      });
      setProgress({ sent: 0, total: totalBytes });
      let sent = 0;
      for (const p of picked) {
        await call(`/api/imports/${uploadId}/files?name=${encodeURIComponent(p.path)}`, {
          method: "PUT",
          headers: { "content-type": "application/octet-stream" },
          body: p.file,
        });
        sent += p.file.size;
        setProgress({ sent, total: totalBytes });
      }
      const r = await call<{ runId: string; imported: number; skipped: ImportProblem[]; mappedBy: string }>(`/api/imports/${uploadId}/commit`, {
        method: "POST",
        headers: json,
        body: "{}",
      });
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
      {state.message && (
        <div
          role={state.ok ? "status" : "alert"}
          className={`rounded-md border px-3 py-2 text-sm ${state.ok ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-rose-200 bg-rose-50 text-rose-800"}`}
        >
          <p className="font-medium">{state.message}</p>
          {state.ok && state.runId && (
            <p className="mt-1">
              <Link href={`/runs/${state.runId}`} className="underline">
                Open the run
              </Link>{" "}
              ·{" "}
              <a href={`/label?run=${state.runId}`} className="underline">
                Label its faces
              </a>
            </p>
          )}
          {!!state.problems?.length && (
            <ul className="mt-2 max-h-64 list-disc overflow-auto pl-5 text-xs">
              {state.problems.map((p) => (
                <li key={p.name + p.message}>
                  <span className="font-mono">{p.name}</span>: {p.message}
                </li>
              ))}
            </ul>
          )}
          {!!state.skipped?.length && <p className="mt-1 text-xs">Left out (not images): {state.skipped.map((s) => `${s.name} (${s.message})`).join(", ")}</p>}
        </div>
      )}

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
      {preview && (
        <Card
          title="3. Check the mapping"
          description={`Mapped by ${preview.mappedBy}. Nothing is stored until you import; image contents are checked on import.`}
          actions={
            <span className="flex gap-2">
              <Badge tone="success">{preview.targets.size} images</Badge>
              {preview.problems.length > 0 && (
                <Badge tone="danger">
                  {preview.problems.length.toLocaleString("en-US")} problem{preview.problems.length === 1 ? "" : "s"}
                </Badge>
              )}
              {preview.skipped.length > 0 && <Badge tone="neutral">{preview.skipped.length} left out</Badge>}
            </span>
          }
        >
          {preview.problems.length > 0 && (
            <Alert className="mb-3">
              Fix these files (or the manifest) first — a batch with a problem stores nothing:
              <ul className="mt-1 max-h-48 list-disc overflow-auto pl-5 text-xs">
                {preview.problems.map((p) => (
                  <li key={p.name + p.message}>
                    <span className="font-mono">{p.name}</span>: {p.message}
                  </li>
                ))}
              </ul>
            </Alert>
          )}
          {cells.length > 0 && suiteNaming && (
            <Table aria-label="Mapping preview">
              <thead>
                <tr>
                  <Th>Prompt (folder; checked against the suite when stored)</Th>
                  <Th className="text-right">Images</Th>
                </tr>
              </thead>
              <tbody>
                {cells.map(({ target, n }) => (
                  <tr key={target.statisticId}>
                    <Td>{target.statisticId}</Td>
                    <Td className="text-right tabular-nums">{n}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          {cells.length > 0 && !suiteNaming && (
            <Table aria-label="Mapping preview">
              <thead>
                <tr>
                  <Th>Statistic</Th>
                  <Th>Test</Th>
                  <Th>Level</Th>
                  <Th className="text-right">Images</Th>
                </tr>
              </thead>
              <tbody>
                {cells.map(({ target, n }) => (
                  <tr key={`${target.test}|${target.statisticId}|${target.level}`}>
                    <Td>{statName.get(target.statisticId)}</Td>
                    <Td>{target.test}</Td>
                    <Td>{target.level}</Td>
                    <Td className="text-right tabular-nums">{n}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          {preview.skipped.length > 0 && (
            <p className="mt-2 text-xs text-slate-500">Left out (not images): {preview.skipped.map((s) => `${s.name} (${s.message})`).join(", ")}</p>
          )}
        </Card>
      )}

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

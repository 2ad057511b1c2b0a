"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RunSummary, runImages } from "@/lib/engine/summary";
import type { ReviewFilter } from "@/lib/suites/types";
import { ItemList } from "./item-list";
import { changeRunState } from "@/app/runs/[id]/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ScoresTable } from "@/components/results/scores-table";
import { Table, Td, Th } from "@/components/ui/table";
import { CONTEXT_LABELS, CONTEXTS, type Context } from "@/lib/benchmark/labels";
import { DONE_QUERY, isLive, outcomeTone, workerTone } from "@/lib/engine/status";
import { getJson } from "@/lib/client/fetch";
import { FailuresPanel } from "./failures-panel";
import { LabellingCard } from "./labelling-card";
import { PROFILE_LABELS, SCORING_PROFILES, type ScoringProfile } from "@/lib/metrics/profiles";

const DONE: readonly string[] = DONE_QUERY;
const CONTEXT_ORDER: readonly string[] = ["", ...CONTEXTS];

function formatEta(s: number | null) {
  if (s === null) return "–";
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** `canManage`: whether the viewer's role may pause / resume / cancel (the server refuses otherwise anyway). */
/** `children`: a suite's own result views (server-rendered), shown instead of FACT-OR-FAIR's scores and image grid. */
/** `filters`: the suite's coordinates for the item list (Suite.reviewFilters, choices only). */
export function RunView({
  initial,
  canManage = false,
  canExport = false,
  filters = [],
  children,
}: {
  initial: RunSummary;
  canManage?: boolean;
  canExport?: boolean;
  filters?: readonly ReviewFilter[];
  children?: React.ReactNode;
}) {
  const qc = useQueryClient();
  const [raceMapping, setRaceMapping] = useState<"paper" | "sum-asian">(initial.raceMapping);
  const [labels, setLabels] = useState<"model" | "reviewed">(initial.labels);
  const [profile, setProfile] = useState<ScoringProfile>(initial.profile);
  const t2i = initial.modality === "t2i";
  const imported = initial.preset === "import";
  const {
    data: run,
    error,
    dataUpdatedAt,
  } = useQuery({
    queryKey: ["run", initial.id, raceMapping, labels, profile],
    queryFn: () => getJson<RunSummary>(`/api/runs/${initial.id}?raceMapping=${raceMapping}&labels=${labels}&profile=${profile}`),
    initialData: raceMapping === initial.raceMapping && labels === initial.labels && profile === initial.profile ? initial : undefined,
    placeholderData: keepPreviousData,
    // T2I runs also follow labelling, which happens in other tabs.
    refetchInterval: (q) =>
      q.state.data && (isLive(q.state.data.status) || (t2i && (q.state.data.labelling?.unlabelled ?? 0) > 0)) ? (t2i ? 3000 : 1000) : false,
  });
  const control = useMutation({
    mutationFn: async (action: "pause" | "resume" | "cancel") => {
      const r = await changeRunState({ runId: initial.id, action });
      if (!r.ok) throw new Error(r.error);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ["run", initial.id] }),
  });
  if (!run) return <p className="text-sm text-slate-500">Loading…</p>;

  const groups = new Map<string, { model: string; test: string; context: string | null; counts: Record<string, number>; total: number }>();
  for (const p of run.progress) {
    const model = run.models.find((m) => m.id === p.modelConfigId)?.slug ?? p.modelConfigId;
    const key = `${model}|${p.test}|${p.context ?? ""}`;
    const g = groups.get(key) ?? { model, test: p.test, context: p.context, counts: {}, total: 0 };
    g.counts[p.status] = (g.counts[p.status] ?? 0) + p.count;
    g.total += p.count;
    groups.set(key, g);
  }
  const pct = run.plannedCount ? (run.done / run.plannedCount) * 100 : 0;

  return (
    <div className="space-y-6">
      {error && (
        <p role="alert" className="text-sm text-rose-700">
          Live updates failed: {(error as Error).message}
        </p>
      )}
      {!imported && (
        <Card
          title={
            <span className="flex items-center gap-2">
              {t2i ? "Generation" : "Progress"} <Badge tone={outcomeTone(run.status, run.failed)}>{run.outcome}</Badge>
            </span>
          }
          description={`seed ${run.seed} · preset ${run.preset} · ${run.models.map((m) => m.slug).join(", ")}`}
          actions={
            <div className="flex gap-2">
              {canManage && isLive(run.status) && (
                <Button variant="secondary" onClick={() => control.mutate("pause")} disabled={control.isPending}>
                  Pause
                </Button>
              )}
              {canManage && ["paused", "budget_exhausted", "failed"].includes(run.status) && (
                <Button variant="secondary" onClick={() => control.mutate("resume")} disabled={control.isPending}>
                  Resume
                </Button>
              )}
              {canManage && !["completed", "cancelled"].includes(run.status) && (
                <Button
                  variant="danger"
                  onClick={() => confirm("Cancel this run? Finished answers are kept.") && control.mutate("cancel")}
                  disabled={control.isPending}
                >
                  Cancel
                </Button>
              )}
            </div>
          }
        >
          {control.error && (
            <p role="alert" className="mb-2 text-sm text-rose-700">
              {(control.error as Error).message}
            </p>
          )}
          {run.error && <p className="mb-2 text-sm text-amber-800">{run.error}</p>}
          <div
            role="progressbar"
            aria-label="Run progress"
            aria-valuemin={0}
            aria-valuemax={run.plannedCount}
            aria-valuenow={run.done}
            className="h-3 w-full overflow-hidden rounded bg-slate-100"
          >
            <div className="h-full bg-indigo-600 transition-all" style={{ width: `${pct}%` }} />
          </div>
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
            <div>
              <dt className="text-xs text-slate-500">Done</dt>
              <dd className="tabular-nums" data-testid="run-done">
                {run.done.toLocaleString("en-US")} / {run.plannedCount.toLocaleString("en-US")} ({pct.toFixed(1)} %)
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Throughput (last 30 s)</dt>
              <dd className="tabular-nums">
                {run.throughput.toFixed(1)} {t2i ? "images" : "queries"}/s
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">ETA</dt>
              <dd className="tabular-nums">{formatEta(run.etaSeconds)}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Spend</dt>
              <dd className="tabular-nums">
                ${run.spentUsd.toFixed(4)}
                {run.budgetUsd !== null && <span className="text-slate-500"> of ${run.budgetUsd.toFixed(2)}</span>}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Started</dt>
              <dd>{run.startedAt ? new Date(run.startedAt).toLocaleString() : "–"}</dd>
            </div>
          </dl>
          {run.health && <WorkerHealth health={run.health} now={dataUpdatedAt} />}
          <Table className="mt-4">
            <thead>
              <tr>
                <Th>Model</Th>
                <Th>Test</Th>
                <Th>Context</Th>
                <Th className="w-1/3">Progress</Th>
                {["answered", "refused", "failed", "pending", "leased"].map((s) => (
                  <Th key={s} className="text-right">
                    {s === "leased" ? "in flight" : s === "pending" && run.status === "cancelled" ? "not run (cancelled)" : s}
                  </Th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...groups.values()]
                .sort(
                  (a, b) =>
                    a.model.localeCompare(b.model) ||
                    a.test.localeCompare(b.test) ||
                    CONTEXT_ORDER.indexOf(a.context ?? "") - CONTEXT_ORDER.indexOf(b.context ?? ""),
                )
                .map((g) => {
                  const done = DONE.reduce((a, s) => a + (g.counts[s] ?? 0), 0);
                  return (
                    <tr key={`${g.model}${g.test}${g.context}`}>
                      <Td>{g.model}</Td>
                      <Td className="capitalize">{g.test}</Td>
                      <Td>{g.context ? (CONTEXT_LABELS[g.context as Context] ?? g.context) : "–"}</Td>
                      <Td>
                        <div className="h-2 w-full overflow-hidden rounded bg-slate-100" aria-hidden>
                          <div className="h-full bg-indigo-500" style={{ width: `${(done / g.total) * 100}%` }} />
                        </div>
                      </Td>
                      {["answered", "refused", "failed", "pending", "leased"].map((s) => (
                        <Td key={s} className="text-right tabular-nums">
                          {(g.counts[s] ?? 0).toLocaleString("en-US")}
                        </Td>
                      ))}
                    </tr>
                  );
                })}
            </tbody>
          </Table>
        </Card>
      )}

      <FailuresPanel runId={run.id} failed={run.failed} failures={run.failures} canSeeItems={canExport} />

      {t2i && run.labelling && <LabellingCard runId={run.id} labelling={run.labelling} imported={imported} canManage={canManage} />}
      {run.scoresRefused && (
        <p role="alert" className="rounded border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800" data-testid="scores-refused">
          {run.scoresRefused}
        </p>
      )}

      {!run.suite.customRunPages ? (
        children
      ) : (
        <>
          <Card
            title="Scores"
            description={
              t2i
                ? "×100 (0–100 scale). One record per detected face; an image without a face counts under refused and is not scored; images not yet labelled are not counted. Updates as faces are labelled."
                : "×100 (0–100 scale); n = scored answers incl. refused; failed calls are not scored. Updates as answers arrive."
            }
            actions={
              <div className="flex flex-wrap items-center gap-3 text-sm">
                {t2i && (
                  <span>
                    <label htmlFor="face-labels" className="mr-1 text-xs text-slate-600">
                      Face labels
                    </label>
                    <select
                      id="face-labels"
                      value={labels}
                      onChange={(e) => setLabels(e.target.value as "model" | "reviewed")}
                      className="rounded-md border border-slate-300 px-2 py-1 text-xs"
                    >
                      <option value="model">model (FairFace as it ran)</option>
                      <option value="reviewed">human-corrected (majority, model otherwise)</option>
                    </select>
                  </span>
                )}
                {t2i && (
                  <span>
                    <label htmlFor="race-mapping" className="mr-1 text-xs text-slate-600">
                      FairFace race mapping
                    </label>
                    <select
                      id="race-mapping"
                      value={raceMapping}
                      onChange={(e) => setRaceMapping(e.target.value as "paper" | "sum-asian")}
                      className="rounded-md border border-slate-300 px-2 py-1 text-xs"
                    >
                      <option value="paper">paper: argmax, Indian &amp; Middle Eastern ignored</option>
                      <option value="sum-asian">sum East + Southeast Asian</option>
                    </select>
                  </span>
                )}
                {t2i && (
                  <span>
                    <label
                      htmlFor="scoring-profile"
                      className="mr-1 text-xs text-slate-600"
                      title="How d is found: the released scripts' bounded search (as the published numbers) or the paper's definition (the global minimum)"
                    >
                      Scoring of d
                    </label>
                    <select
                      id="scoring-profile"
                      value={profile}
                      onChange={(e) => setProfile(e.target.value as ScoringProfile)}
                      className="rounded-md border border-slate-300 px-2 py-1 text-xs"
                    >
                      {SCORING_PROFILES.map((p) => (
                        <option key={p} value={p}>
                          {p}: {PROFILE_LABELS[p]}
                        </option>
                      ))}
                    </select>
                  </span>
                )}
                {canExport && (
                  <a
                    className="text-xs text-indigo-700 underline"
                    href={`/api/runs/${run.id}/export?format=jsonl&raceMapping=${raceMapping}&labels=${labels}`}
                    download
                  >
                    Download JSONL ({t2i ? "one line per face" : "one line per answer"})
                  </a>
                )}
                <a
                  className="text-xs text-indigo-700 underline"
                  href={`/api/runs/${run.id}/export?format=json&raceMapping=${raceMapping}&profile=${profile}`}
                  download
                >
                  Scores JSON
                </a>
                <a
                  className="text-xs text-indigo-700 underline"
                  href={`/api/runs/${run.id}/export?format=csv&raceMapping=${raceMapping}&labels=${labels}&profile=${profile}`}
                  download
                >
                  Scores CSV (with 95 % intervals)
                </a>
                <Link
                  className="text-xs text-indigo-700 underline"
                  href={`/runs/${run.id}/report${t2i ? `?labels=${labels}&raceMapping=${raceMapping}&profile=${profile}` : ""}`}
                >
                  Printable report
                </Link>
              </div>
            }
          >
            {run.scores.length === 0 ? (
              <p className="text-sm text-slate-500">{t2i ? "No labelled images yet." : "No answers yet."}</p>
            ) : (
              <>
                {run.modelScores && (
                  <p className="mb-2 text-xs text-slate-500">Small numbers under each score: the difference to the model’s own labels (×100).</p>
                )}
                <ScoresTable
                  rows={run.scores.map((g) => ({ ...g, run: { id: run.id, name: run.name } }))}
                  baseline={run.modelScores}
                  hideRunColumn
                  breakdownLinks
                  // intervals once the data stops changing (they are cached per state of the data)
                  intervalsFor={isLive(run.status) ? [] : [run.id]}
                  intervalParams={t2i ? { labels, raceMapping, profile } : {}}
                />
              </>
            )}
          </Card>

          {t2i && <ImageGrid runId={run.id} raceMapping={raceMapping} live={isLive(run.status) || (run.labelling?.unlabelled ?? 0) > 0} />}
        </>
      )}

      {/* Every suite's items, for roles that may read raw output (the API refuses the others). */}
      {canExport && <ItemList runId={run.id} live={isLive(run.status)} filters={filters} models={run.models.map((m) => m.slug)} t2i={t2i} />}
    </div>
  );
}

type ImagePage = Awaited<ReturnType<typeof runImages>>;

function ImageGrid({ runId, raceMapping, live }: { runId: string; raceMapping: string; live: boolean }) {
  const [filter, setFilter] = useState({ labelStatus: "", page: 1 });
  const params = new URLSearchParams({ page: String(filter.page), pageSize: "24", labelStatus: filter.labelStatus, raceMapping });
  const { data, error } = useQuery({
    queryKey: ["run-images", runId, filter, raceMapping],
    queryFn: () => getJson<ImagePage>(`/api/runs/${runId}/images?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 5000 : false,
  });
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <Card title="Images" description="Every image with its statistic, level, prompt kind and the faces found in it.">
      <div className="mb-3 flex flex-wrap items-end gap-3 text-sm">
        <div>
          <label htmlFor="image-status" className="block text-xs font-medium text-slate-600">
            Label status
          </label>
          <select
            id="image-status"
            value={filter.labelStatus}
            onChange={(e) => setFilter({ labelStatus: e.target.value, page: 1 })}
            className="rounded-md border border-slate-300 px-2 py-1"
          >
            <option value="">all</option>
            <option value="unlabelled">unlabelled</option>
            <option value="labelled">labelled</option>
            <option value="no_face">no face</option>
          </select>
        </div>
        <span className="text-xs text-slate-500">{data ? `${data.total.toLocaleString("en-US")} images` : "loading…"}</span>
      </div>
      {error && (
        <p role="alert" className="text-sm text-rose-700">
          {(error as Error).message}
        </p>
      )}
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
        {data?.rows.map((img) => (
          <li key={img.id} className="rounded border border-slate-200 p-1 text-xs" data-testid="run-image">
            {/* The whole image (never cropped) with its face boxes on top; a click opens it at full size. */}
            <a
              href={`/api/images/${img.id}`}
              target="_blank"
              rel="noopener"
              className="flex aspect-square items-center justify-center rounded bg-slate-50 focus-visible:outline focus-visible:outline-2"
              aria-label={`Open the whole image (${img.width} × ${img.height}) with its ${img.faces.length} face box${img.faces.length === 1 ? "" : "es"}`}
            >
              <span
                className="relative block max-h-full max-w-full"
                style={{
                  aspectRatio: `${img.width} / ${img.height}`,
                  width: img.width >= img.height ? "100%" : "auto",
                  height: img.height > img.width ? "100%" : "auto",
                }}
              >
                {/* eslint-disable-next-line @next/next/no-img-element */}
                <img src={`/api/images/${img.id}`} alt={`${img.statisticId} ${img.level} ${img.test}`} loading="lazy" className="block h-full w-full rounded" />
                {img.faces.map((f) => (
                  <span
                    key={f.id}
                    data-testid="face-box"
                    title={`${f.gender ?? "?"} / ${f.race ?? "?"}`}
                    className="pointer-events-none absolute border-2 border-amber-400"
                    style={{
                      left: `${(f.x1 / img.width) * 100}%`,
                      top: `${(f.y1 / img.height) * 100}%`,
                      width: `${((f.x2 - f.x1) / img.width) * 100}%`,
                      height: `${((f.y2 - f.y1) / img.height) * 100}%`,
                    }}
                  />
                ))}
              </span>
            </a>
            <p className="mt-1 truncate" title={img.originalName ?? undefined}>
              {img.statisticId} · {img.level} · {img.test}
            </p>
            <p className="text-slate-600">
              {img.labelStatus === "labelled"
                ? img.faces.map((f) => `${f.gender ?? "?"}/${f.race ?? "?"}`).join(", ")
                : img.labelStatus === "no_face"
                  ? "no face"
                  : "not labelled"}
            </p>
          </li>
        ))}
      </ul>
      <nav aria-label="Image pages" className="mt-3 flex items-center gap-2 text-sm">
        <Button variant="secondary" disabled={filter.page <= 1} onClick={() => setFilter({ ...filter, page: filter.page - 1 })}>
          Previous
        </Button>
        <span className="tabular-nums">
          Page {filter.page} of {pages}
        </span>
        <Button variant="secondary" disabled={filter.page >= pages} onClick={() => setFilter({ ...filter, page: filter.page + 1 })}>
          Next
        </Button>
      </nav>
    </Card>
  );
}

/** Who is working on this run, and whether they are well: no worker, a stalled one, or database errors show here. */
/** `now`: when the summary was read (heartbeats are shown relative to it, so rendering stays pure). */
function WorkerHealth({ health, now }: { health: NonNullable<RunSummary["health"]>; now: number }) {
  const ago = (iso: string) => `${Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000))} s ago`;
  if (!health.workers.length)
    return (
      <p role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="worker-health">
        No worker is running: start the server (its worker is on unless FOF_WORKER=off) or run <code>npm run fof -- worker</code>.
      </p>
    );
  return (
    <div className="mt-3 text-xs text-slate-600" data-testid="worker-health">
      <span className="font-medium text-slate-700">Workers</span>
      <ul className="mt-1 space-y-0.5">
        {health.workers.map((w) => (
          <li key={w.owner}>
            <Badge tone={workerTone(w.state)}>{w.state}</Badge> {w.host} · pid {w.pid} · heartbeat {ago(w.heartbeatAt)} · {w.inFlight} in flight
            {w.lastError && (
              <span className="block text-amber-800" title={w.lastErrorAt ?? undefined}>
                last error{w.lastErrorAt ? ` (${ago(w.lastErrorAt)})` : ""}: {w.lastError}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

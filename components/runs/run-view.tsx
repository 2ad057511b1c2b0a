"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import type { RunSummary, runQueries } from "@/lib/engine/summary";
import { changeRunState } from "@/app/runs/[id]/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ScoresTable } from "@/components/results/scores-table";
import { Table, Td, Th } from "@/components/ui/table";

const DONE = ["answered", "refused", "failed"];
const CONTEXT_ORDER = ["", "baseline", "representativeness", "attribution", "ingroup"];
const STATUS_TONE: Record<string, "success" | "warning" | "danger" | "info" | "neutral"> = {
  completed: "success",
  running: "info",
  paused: "warning",
  budget_exhausted: "warning",
  cancelled: "neutral",
  failed: "danger",
  queued: "neutral",
};

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { cache: "no-store" });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body as T;
}

function formatEta(s: number | null) {
  if (s === null) return "–";
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

export function RunView({ initial }: { initial: RunSummary }) {
  const qc = useQueryClient();
  const { data: run, error } = useQuery({
    queryKey: ["run", initial.id],
    queryFn: () => getJson<RunSummary>(`/api/runs/${initial.id}`),
    initialData: initial,
    refetchInterval: (q) => (q.state.data && ["running", "queued"].includes(q.state.data.status) ? 1000 : false),
  });
  const control = useMutation({
    mutationFn: async (action: "pause" | "resume" | "cancel") => {
      const r = await changeRunState({ runId: run.id, action });
      if (!r.ok) throw new Error(r.error);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ["run", run.id] }),
  });

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
      <Card
        title={
          <span className="flex items-center gap-2">
            Progress <Badge tone={STATUS_TONE[run.status] ?? "neutral"}>{run.status.replace("_", " ")}</Badge>
          </span>
        }
        description={`seed ${run.seed} · preset ${run.preset} · ${run.models.map((m) => m.slug).join(", ")}`}
        actions={
          <div className="flex gap-2">
            {["running", "queued"].includes(run.status) && (
              <Button variant="secondary" onClick={() => control.mutate("pause")} disabled={control.isPending}>
                Pause
              </Button>
            )}
            {["paused", "budget_exhausted", "failed"].includes(run.status) && (
              <Button variant="secondary" onClick={() => control.mutate("resume")} disabled={control.isPending}>
                Resume
              </Button>
            )}
            {!["completed", "cancelled"].includes(run.status) && (
              <Button variant="danger" onClick={() => confirm("Cancel this run? Finished answers are kept.") && control.mutate("cancel")} disabled={control.isPending}>
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
            <dd className="tabular-nums">{run.throughput.toFixed(1)} queries/s</dd>
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
        <Table className="mt-4">
          <thead>
            <tr>
              <Th>Model</Th>
              <Th>Test</Th>
              <Th>Context</Th>
              <Th className="w-1/3">Progress</Th>
              {["answered", "refused", "failed", "pending", "leased"].map((s) => (
                <Th key={s} className="text-right">
                  {s === "leased" ? "in flight" : s}
                </Th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...groups.values()]
              .sort((a, b) => a.model.localeCompare(b.model) || a.test.localeCompare(b.test) || CONTEXT_ORDER.indexOf(a.context ?? "") - CONTEXT_ORDER.indexOf(b.context ?? ""))
              .map((g) => {
              const done = DONE.reduce((a, s) => a + (g.counts[s] ?? 0), 0);
              return (
                <tr key={`${g.model}${g.test}${g.context}`}>
                  <Td>{g.model}</Td>
                  <Td className="capitalize">{g.test}</Td>
                  <Td>{g.context ?? "–"}</Td>
                  <Td>
                    <div className="h-2 w-full overflow-hidden rounded bg-slate-100" aria-hidden>
                      <div className="h-full bg-indigo-500" style={{ width: `${(done / g.total) * 100}%` }} />
                    </div>
                  </Td>
                  {["answered", "refused", "failed", "pending", "leased"].map((s) => (
                    <Td key={s} className="text-right tabular-nums">
                      {g.counts[s] ?? 0}
                    </Td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </Table>
      </Card>

      <Card title="Scores" description="×100 (0–100 scale); n = scored answers incl. refused; failed calls are not scored. Updates as answers arrive.">
        {run.scores.length === 0 ? <p className="text-sm text-slate-500">No answers yet.</p> : <ScoresTable rows={run.scores} />}
      </Card>

      <QueryList runId={run.id} live={["running", "queued"].includes(run.status)} />
    </div>
  );
}

/** The queries API's response (app/api/runs/[id]/queries → lib/engine runQueries). */
type QueryPage = Awaited<ReturnType<typeof runQueries>>;

function QueryList({ runId, live }: { runId: string; live: boolean }) {
  const [filter, setFilter] = useState({ status: "", test: "", page: 1 });
  const [open, setOpen] = useState<number | null>(null);
  const params = new URLSearchParams({ page: String(filter.page), pageSize: "25", status: filter.status, test: filter.test });
  const { data, isFetching, error } = useQuery({
    queryKey: ["run-queries", runId, filter],
    queryFn: () => getJson<QueryPage>(`/api/runs/${runId}/queries?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 3000 : false,
  });
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <Card title="Queries" description="Every planned query with its exact prompt, raw output, parsed answer, attempts and error.">
      <div className="mb-3 flex flex-wrap items-end gap-3 text-sm">
        {(
          [
            ["status", "Status", ["answered", "refused", "failed", "pending", "leased"]],
            ["test", "Test", ["objective", "subjective"]],
          ] as const
        ).map(([key, label, values]) => (
          <div key={key}>
            <label htmlFor={`filter-${key}`} className="block text-xs font-medium text-slate-600">
              {label}
            </label>
            <select
              id={`filter-${key}`}
              value={filter[key]}
              onChange={(e) => setFilter({ ...filter, [key]: e.target.value, page: 1 })}
              className="rounded-md border border-slate-300 px-2 py-1"
            >
              <option value="">all</option>
              {values.map((v) => (
                <option key={v}>{v}</option>
              ))}
            </select>
          </div>
        ))}
        <span className="text-xs text-slate-500" aria-live="polite">
          {data ? `${data.total.toLocaleString("en-US")} queries` : "loading…"} {isFetching && "· updating"}
        </span>
      </div>
      {error && <p role="alert" className="text-sm text-rose-700">{(error as Error).message}</p>}
      <Table>
        <thead>
          <tr>
            <Th>#</Th>
            <Th>Model</Th>
            <Th>Test</Th>
            <Th>Statistic</Th>
            <Th>Level</Th>
            <Th>Status</Th>
            <Th>Answer</Th>
            <Th className="text-right">Attempts</Th>
          </tr>
        </thead>
        <tbody>
          {data?.rows.map((q) => (
            <Fragment key={q.id}>
              <tr className="hover:bg-slate-50">
                <Td>
                  <button
                    type="button"
                    className="text-indigo-700 underline-offset-2 hover:underline"
                    aria-expanded={open === q.id}
                    aria-controls={`query-${q.id}`}
                    onClick={() => setOpen(open === q.id ? null : q.id)}
                  >
                    {q.id}
                  </button>
                </Td>
                <Td>{q.model}</Td>
                <Td>
                  {q.test}
                  {q.context ? ` · ${q.context}` : q.attribute ? ` · ${q.attribute}` : ""}
                </Td>
                <Td>{q.statisticId}</Td>
                <Td>{q.level}</Td>
                <Td>
                  <Badge tone={q.status === "answered" ? "success" : q.status === "failed" ? "danger" : q.status === "refused" ? "warning" : "neutral"}>{q.status}</Badge>
                </Td>
                <Td>{q.outcome?.parsedLetter ? `${q.outcome.parsedLetter} → ${[q.outcome.gender, q.outcome.race].filter(Boolean).join(", ")}` : "–"}</Td>
                <Td className="text-right tabular-nums">{(q.outcome?.attempts ?? 0) + q.retries}</Td>
              </tr>
              {open === q.id && (
                <tr id={`query-${q.id}`}>
                  <Td colSpan={8} className="bg-slate-50">
                    <div className="grid gap-3 md:grid-cols-2">
                      <div>
                        <h4 className="text-xs font-semibold text-slate-600">Prompt</h4>
                        <pre className="mt-1 whitespace-pre-wrap break-words rounded border border-slate-200 bg-white p-2 font-mono text-xs">{q.prompt}</pre>
                      </div>
                      <div className="space-y-2">
                        <h4 className="text-xs font-semibold text-slate-600">Raw output</h4>
                        {/* Model output is text, never HTML. */}
                        <pre data-testid="raw-output" className="whitespace-pre-wrap break-words rounded border border-slate-200 bg-white p-2 font-mono text-xs">
                          {q.outcome?.rawText ?? "(none)"}
                        </pre>
                        {q.outcome?.reason && <p className="text-xs text-rose-700">Reason: {q.outcome.reason}</p>}
                        <p className="text-xs text-slate-600">
                          {q.outcome ? `${q.outcome.status} · ${q.outcome.latencyMs ?? 0} ms · $${q.outcome.costUsd.toFixed(5)}${q.outcome.cached ? " · from cache" : ""}` : "not answered yet"}
                          {q.identity ? ` · context identity ${JSON.stringify(q.identity)}` : ""}
                        </p>
                        <details>
                          <summary className="cursor-pointer text-xs text-slate-600">Attempt log</summary>
                          <pre className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{JSON.stringify(q.outcome?.attemptLog ?? [], null, 2)}</pre>
                        </details>
                      </div>
                    </div>
                  </Td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </Table>
      <nav aria-label="Pages" className="mt-3 flex items-center gap-2 text-sm">
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

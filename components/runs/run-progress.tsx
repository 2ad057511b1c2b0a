"use client";
// A run's progress card: status, the progress bar, throughput, ETA and spend, who is working on it, the counts per
// model × test × context, and the owner's pause / resume / cancel.
import type { UseMutationResult } from "@tanstack/react-query";
import type { RunSummary } from "@/lib/features/results/summary";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Table, Td, Th } from "@/components/ui/table";
import { CONTEXT_LABELS, CONTEXTS, type Context } from "@/lib/benchmark/labels";
import { DONE_QUERY, isLive, outcomeTone, workerTone } from "@/lib/core/run-status";
import { ProgressBar } from "@/components/ui/progress";

const DONE: readonly string[] = DONE_QUERY;
const CONTEXT_ORDER: readonly string[] = ["", ...CONTEXTS];
const COLUMNS = ["answered", "refused", "failed", "pending", "leased"] as const;

function formatEta(s: number | null) {
  if (s === null) return "–";
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** Counts per model × test × context, from the summary's progress rows. */
function progressGroups(run: RunSummary) {
  const groups = new Map<string, { model: string; test: string; context: string | null; counts: Record<string, number>; total: number }>();
  for (const p of run.progress) {
    const model = run.models.find((m) => m.id === p.modelConfigId)?.slug ?? p.modelConfigId;
    const key = `${model}|${p.test}|${p.context ?? ""}`;
    const g = groups.get(key) ?? { model, test: p.test, context: p.context, counts: {}, total: 0 };
    g.counts[p.status] = (g.counts[p.status] ?? 0) + p.count;
    g.total += p.count;
    groups.set(key, g);
  }
  return [...groups.values()].sort(
    (a, b) => a.model.localeCompare(b.model) || a.test.localeCompare(b.test) || CONTEXT_ORDER.indexOf(a.context ?? "") - CONTEXT_ORDER.indexOf(b.context ?? ""),
  );
}

export function RunProgress({
  run,
  canManage,
  control,
  updatedAt,
}: {
  run: RunSummary;
  canManage: boolean;
  control: UseMutationResult<void, Error, "pause" | "resume" | "cancel">;
  /** when the summary was read (heartbeats are shown relative to it) */
  updatedAt: number;
}) {
  const t2i = run.modality === "t2i";
  const pct = run.plannedCount ? (run.done / run.plannedCount) * 100 : 0;
  // The bar shows what produced an answer (or a refusal): a run whose items failed does not read as full.
  const succeeded = run.done - run.failed;
  const live = isLive(run.status);
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          {t2i ? "Generation" : "Progress"} <Badge tone={outcomeTone(run.status, run.failed)}>{run.outcome}</Badge>
        </span>
      }
      description={`seed ${run.seed} · preset ${run.preset}${cotText(run.config)} · ${run.models.map((m) => m.slug).join(", ")}`}
      actions={
        <div className="flex gap-2">
          {canManage && (run.status === "running" || run.status === "queued" || run.status === "planning") && (
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
            <ConfirmDialog
              title="Cancel this run?"
              description="Queries not yet answered are not sent; finished answers and their costs are kept. A cancelled run cannot be resumed."
              confirmLabel="Cancel run"
              cancelLabel="Keep running"
              onConfirm={() => control.mutate("cancel")}
              trigger={
                <Button variant="danger" disabled={control.isPending}>
                  Cancel
                </Button>
              }
            />
          )}
        </div>
      }
    >
      {control.error && (
        <Alert compact className="mb-2">
          {(control.error as Error).message}
        </Alert>
      )}
      {run.error && <p className="mb-2 text-sm text-amber-800">{run.error}</p>}
      {run.planning && (run.status === "planning" || run.status === "paused") && (
        <div className="mb-3" data-testid="planning-progress">
          <p className="mb-1 text-sm text-slate-700">
            Planning: {run.written.toLocaleString("en-US")} of {run.plannedCount.toLocaleString("en-US")} {t2i ? "items" : "queries"} written;{" "}
            {run.status === "paused" ? "paused: nothing is called until you resume it." : "calls start as they are."}
          </p>
          <ProgressBar label="Planning progress" value={run.written} max={run.plannedCount} />
        </div>
      )}
      <ProgressBar label="Run progress" value={succeeded} max={run.plannedCount} tone="indigo" />
      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
        <div>
          <dt className="text-xs text-slate-500">Done</dt>
          <dd className="tabular-nums" data-testid="run-done">
            {run.done.toLocaleString("en-US")} / {run.plannedCount.toLocaleString("en-US")} ({pct.toFixed(1)} %)
            {run.plannedAtLaunch !== null && (
              <span className="text-slate-500" data-testid="planned-at-launch">
                {" "}
                of {run.plannedAtLaunch.toLocaleString("en-US")} planned at launch
              </span>
            )}
            {run.failed > 0 && <span className="text-rose-700"> · {run.failed.toLocaleString("en-US")} failed</span>}
          </dd>
        </div>
        {/* A finished or cancelled run has no throughput or ETA: the last 30 s say nothing about it. */}
        <div>
          <dt className="text-xs text-slate-500">Throughput (last 30 s)</dt>
          <dd className="tabular-nums">{live ? `${run.throughput.toFixed(1)} ${t2i ? "images" : "queries"}/s` : "–"}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">ETA</dt>
          <dd className="tabular-nums">{live ? formatEta(run.etaSeconds) : "–"}</dd>
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
        {run.finishedAt && (
          <div>
            <dt className="text-xs text-slate-500">Finished</dt>
            <dd data-testid="run-finished">
              {new Date(run.finishedAt).toLocaleString()}
              {run.startedAt && <span className="text-slate-500"> · took {duration(Date.parse(run.finishedAt) - Date.parse(run.startedAt))}</span>}
            </dd>
          </div>
        )}
      </dl>
      {run.health && <WorkerHealth health={run.health} now={updatedAt} />}
      <ItemsByGroup open={live}>
        <Table className="mt-4">
          <thead>
            <tr>
              <Th>Model</Th>
              <Th>Test</Th>
              <Th>Context</Th>
              <Th className="w-1/3">Progress</Th>
              {COLUMNS.map((s) => (
                <Th key={s} className="text-right">
                  {s === "leased" ? "in flight" : s === "pending" && run.status === "cancelled" ? "not run (cancelled)" : s}
                </Th>
              ))}
            </tr>
          </thead>
          <tbody>
            {progressGroups(run).map((g) => {
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
                  {COLUMNS.map((s) => (
                    <Td key={s} className="text-right tabular-nums">
                      {(g.counts[s] ?? 0).toLocaleString("en-US")}
                    </Td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </Table>
      </ItemsByGroup>
    </Card>
  );
}

function WorkerHealth({ health, now }: { health: NonNullable<RunSummary["health"]>; now: number }) {
  const ago = (iso: string) => `${Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000))} s ago`;
  if (!health.workers.length)
    return (
      <Alert tone="warning" className="mt-3" data-testid="worker-health">
        No worker is running: start the server (its worker is on unless FOF_WORKER=off) or run <code>npm run fof -- worker</code>.
      </Alert>
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

/** "3 min 20 s", "2 h 5 min", "1 d 3 h": how long a run took, to the unit that matters. */
function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

/** The counts per model, test and context: open while the run runs; folded once it has ended, so the scores come first. */
function ItemsByGroup({ open, children }: { open: boolean; children: React.ReactNode }) {
  if (open) return <>{children}</>;
  return (
    <details className="mt-4" data-testid="items-by-group">
      <summary className="cursor-pointer text-sm text-slate-600">Items by model, test and context</summary>
      {children}
    </details>
  );
}

/** Whether a chat run asked for the reasoning first (lib/benchmark/cot.ts); nothing for runs without the option. */
function cotText(config: unknown): string {
  const cot = (config as { cot?: unknown } | null)?.cot;
  return cot === true ? " · chain of thought: every answer reasoned first" : cot === false ? " · answers only (no reasoning asked)" : "";
}

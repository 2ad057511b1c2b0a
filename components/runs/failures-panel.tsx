"use client";

// A run's failed items grouped by reason, so a failure is never only a number: each reason with its count, and (for
// roles that may read raw output) the items behind it, a page at a time.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { getJson } from "@/lib/client/fetch";

interface FailedItem {
  id: number;
  model: string;
  test: string;
  context: string | null;
  statisticId: string;
  level: string;
  repeatIndex: number;
  retries: number;
  prompt: string;
}

function Items({ runId, reason }: { runId: string; reason: string }) {
  const [page, setPage] = useState(1);
  const params = new URLSearchParams({ status: "failed", reason, page: String(page), pageSize: "20" });
  const { data, error, isPending } = useQuery({
    queryKey: ["failed-items", runId, reason, page],
    queryFn: () => getJson<{ total: number; rows: FailedItem[] }>(`/api/runs/${runId}/queries?${params}`),
  });
  if (isPending) return <p className="text-xs text-slate-500">Loading…</p>;
  if (error) return <p className="text-xs text-rose-700">{(error as Error).message}</p>;
  const pages = Math.max(1, Math.ceil(data.total / 20));
  return (
    <div className="mt-1 space-y-1">
      <ul className="space-y-1 text-xs" data-testid="failed-items">
        {data.rows.map((q) => (
          <li key={q.id} className="rounded bg-slate-50 px-2 py-1">
            <span className="font-mono text-slate-500">#{q.id}</span> {q.model} · {q.test}
            {q.context ? ` · ${q.context}` : ""} · {q.statisticId} · {q.level} · repeat {q.repeatIndex + 1} · {q.retries} attempt{q.retries === 1 ? "" : "s"}
            <div className="truncate text-slate-600" title={q.prompt}>
              {q.prompt}
            </div>
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <div className="flex items-center gap-2 text-xs">
          <button type="button" className="underline disabled:opacity-40" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          page {page} of {pages.toLocaleString("en-US")}
          <button type="button" className="underline disabled:opacity-40" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </div>
      )}
    </div>
  );
}

export function FailuresPanel({ runId, failed, failures, canSeeItems }: { runId: string; failed: number; failures: Array<{ reason: string; count: number }>; canSeeItems: boolean }) {
  const [open, setOpen] = useState<string | null>(null);
  if (failed === 0) return null;
  return (
    <Card title={`Failures (${failed.toLocaleString("en-US")})`} description="Failed items by the reason recorded for them, most frequent first. Failed items are left out of every score; the run's status says how many there are.">
      <ul className="space-y-2 text-sm" data-testid="failure-reasons">
        {failures.map((f) => (
          <li key={f.reason}>
            <div className="flex flex-wrap items-start gap-2">
              <span className="rounded bg-rose-50 px-1.5 font-medium text-rose-800">{f.count.toLocaleString("en-US")}×</span>
              <span className="min-w-0 flex-1 break-words">{f.reason}</span>
              {canSeeItems && (
                <button type="button" className="text-xs text-indigo-700 underline" aria-expanded={open === f.reason} onClick={() => setOpen(open === f.reason ? null : f.reason)}>
                  {open === f.reason ? "Hide items" : "Show items"}
                </button>
              )}
            </div>
            {open === f.reason && <Items runId={runId} reason={f.reason} />}
          </li>
        ))}
      </ul>
    </Card>
  );
}

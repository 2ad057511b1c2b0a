"use client";

import { useQueries } from "@tanstack/react-query";
import type { BootstrapIntervals } from "@/lib/metrics/bootstrap";
import type { IntervalsResult } from "@/lib/features/results/intervals";
import { pointIntervalKey } from "@/lib/results/tradeoff";

/**
 * Bootstrap intervals of runs, fetched after the page is shown (the server computes them once and caches them).
 * Returns a map keyed like pointIntervalKey, and how many runs are still computing or failed.
 */
export function useRunIntervals(runIds: readonly string[], params: Record<string, string> = {}) {
  const results = useQueries({
    queries: runIds.map((id) => ({
      queryKey: ["intervals", id, params],
      queryFn: async (): Promise<IntervalsResult> => {
        const res = await fetch(`/api/runs/${id}/intervals?${new URLSearchParams(params)}`);
        const body = await res.json();
        if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
        return body as IntervalsResult;
      },
      staleTime: 60_000,
      retry: 0,
    })),
  });
  const map = new Map<string, BootstrapIntervals>();
  for (const r of results) {
    for (const g of r.data?.groups ?? [])
      map.set(
        pointIntervalKey({
          run: { id: r.data!.runId, name: "" },
          model: g.model,
          modality: g.modality,
          test: g.test,
          context: g.context,
          attribute: g.attribute,
        }),
        g.intervals,
      );
  }
  const meta = results.find((r) => r.data)?.data;
  return {
    intervals: map,
    pending: results.filter((r) => r.isPending).length,
    errors: results.filter((r) => r.error).map((r) => (r.error as Error).message),
    resamples: meta?.resamples ?? null,
    target: meta?.target ?? null,
  };
}

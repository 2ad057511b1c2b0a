"use client";

// What the two rank-interval tables share (rank-intervals.tsx: FACT-OR-FAIR's leaderboard; suite-rank-intervals.tsx:
// the other suites' Results): fetching /api/results/ranks once per set of options, and one rank cell.
import { useQuery } from "@tanstack/react-query";
import { Td } from "@/components/ui/table";

export function useRanks<T>(params: URLSearchParams, enabled: boolean) {
  return useQuery({
    queryKey: ["ranks", params.toString()],
    queryFn: async (): Promise<T> => {
      const res = await fetch(`/api/results/ranks?${params}`);
      const body = await res.json();
      if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
      return body as T;
    },
    staleTime: 60_000,
    retry: 0,
    enabled,
  });
}

/** "2 [1–3] tie": the point estimate's rank, its 95 % range, and whether another row's range overlaps it. */
export function RankCell({ r }: { r: { rank: number; lo: number; hi: number; tiedWith: readonly string[] } | undefined }) {
  return (
    <Td className="text-right tabular-nums" title={r?.tiedWith.length ? `not separable from ${r.tiedWith.length} other(s)` : undefined}>
      {r ? (
        <>
          {r.rank} [{r.lo === r.hi ? r.lo : `${r.lo}–${r.hi}`}]{r.tiedWith.length > 0 && <span className="ml-1 text-[10px] text-amber-700">tie</span>}
        </>
      ) : (
        "–"
      )}
    </Td>
  );
}

/** While the ranks are computed, or why they are not there; null once they are. */
export function RanksStatus({ q }: { q: { isPending: boolean; error: unknown } }) {
  if (q.isPending)
    return (
      <p className="text-xs text-slate-500" aria-live="polite">
        Computing rank intervals…
      </p>
    );
  if (q.error) return <p className="text-xs text-red-700">Rank intervals unavailable: {(q.error as Error).message}</p>;
  return null;
}

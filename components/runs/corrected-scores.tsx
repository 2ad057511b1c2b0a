"use client";

// The third face-label source of a text-to-image run: scores from label shares corrected for the classifier's
// measured confusion (GET /api/runs/:id/corrected), each with its interval — or why they cannot be given yet.
import { useQuery } from "@tanstack/react-query";
import { Table, Td, Th } from "@/components/ui/table";
import { Score } from "@/components/ui/score";
import { IntervalCell } from "@/components/results/interval-cell";
import type { CorrectedResult } from "@/lib/features/results/corrected";
import { BOOTSTRAP_METRICS } from "@/lib/metrics/design";
import { METRIC_NAMES } from "@/lib/results/comparison-text";

export function CorrectedScores({ runId, raceMapping, profile }: { runId: string; raceMapping: string; profile: string }) {
  const params = new URLSearchParams({ raceMapping, profile });
  const q = useQuery({
    queryKey: ["corrected", runId, params.toString()],
    queryFn: async (): Promise<CorrectedResult> => {
      const res = await fetch(`/api/runs/${runId}/corrected?${params}`);
      const body = await res.json();
      if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
      return body as CorrectedResult;
    },
    staleTime: 60_000,
    retry: 0,
  });
  if (q.isPending)
    return (
      <p className="text-sm text-slate-500" aria-live="polite">
        Estimating the classifier&apos;s errors from the reviewed faces…
      </p>
    );
  if (q.error) return <p className="text-sm text-red-700">Corrected scores unavailable: {(q.error as Error).message}</p>;
  const r = q.data!;
  return (
    <div data-testid="corrected-scores" className="space-y-2">
      <p className="text-xs text-slate-600">
        Label shares corrected for the face classifier&apos;s confusion (the classifier named under Label provenance) as measured on this run&apos;s reviewed
        faces (human majority against the classifier:{" "}
        {(["gender", "race"] as const)
          .map(
            (a) =>
              `${a} ${Object.entries(r.reviewed[a] ?? {})
                .map(([c, n]) => `${c} ${n}`)
                .join(", ")}`,
          )
          .join("; ")}
        ); intervals resample the reviewed faces with the images. Under each score: estimate [95 % interval].
      </p>
      {r.warnings.map((w) => (
        <p key={w} className="rounded bg-amber-50 px-2 py-1 text-sm text-amber-900" data-testid="labeller-warning">
          ⚠ {w}
        </p>
      ))}
      {r.refused.map((x) => (
        <p key={x.attribute} className="rounded bg-amber-50 px-2 py-1 text-sm text-amber-900" data-testid="corrected-refused">
          {x.attribute}: {x.reason}
        </p>
      ))}
      {r.groups.length > 0 && (
        <Table>
          <thead>
            <tr>
              <Th>Model</Th>
              <Th>Test</Th>
              <Th>Attribute</Th>
              {BOOTSTRAP_METRICS.map((m) => (
                <Th key={m} className="text-right">
                  {METRIC_NAMES[m]}
                </Th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.groups.map((g) => (
              <tr key={`${g.model}|${g.test}|${g.attribute}`} data-testid="corrected-row">
                <Td>{g.model}</Td>
                <Td className="capitalize">{g.test}</Td>
                <Td className="capitalize">{g.attribute}</Td>
                {BOOTSTRAP_METRICS.map((m) => (
                  <Td key={m} className="text-right">
                    <Score value={g[m]} />
                    {g.intervals[m] && <IntervalCell interval={g.intervals[m]!} target={r.target} />}
                  </Td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}

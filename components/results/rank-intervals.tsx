"use client";

// Rank intervals beside the leaderboard: each of our runs' models ranked per paper column and attribute in every
// joint bootstrap resample; "1–3" is where its rank lies with 95 % confidence, and rows whose intervals overlap are
// ties — the leaderboard's bold and underline rank point estimates, this says which of those ranks are real.
import { Table, Td, Th } from "@/components/ui/table";
import { RankCell, RanksStatus, useRanks } from "./rank-parts";
import type { RanksResult } from "@/lib/features/results/ranks";
import type { BootstrapMetric } from "@/lib/metrics/design";

export function RankIntervals({
  runs,
  metric,
  modality,
  columns,
}: {
  runs: Array<{ id: string; name: string }>;
  metric: BootstrapMetric;
  modality: "llm" | "t2i";
  columns: readonly string[];
}) {
  const params = new URLSearchParams({ runs: runs.map((r) => r.id).join(","), metric });
  const q = useRanks<RanksResult>(params, runs.length > 0);
  if (!runs.length) return null;
  if (q.isPending || q.error) return <RanksStatus q={q} />;
  const rows = q.data!.rows.filter((r) => r.modality === modality && columns.includes(r.column));
  if (!rows.length)
    return (
      <p className="text-xs text-slate-500">
        Rank intervals: none yet (they need at least two of our models with the same test: pick more runs, or a run with several models).
      </p>
    );
  const name = (runId: string) => runs.find((r) => r.id === runId)?.name ?? runId;
  const arms = [...new Set(rows.map((r) => `${r.runId}|${r.model}`))];
  return (
    <div className="mt-2" data-testid="rank-intervals">
      <p className="mb-1 text-xs text-slate-600">
        95 % rank intervals among our models (1 = best; population target, {q.data!.resamples} joint resamples): rank [range]. “tie” — its range overlaps
        another model&apos;s, so the order between them is not established.{" "}
        <a className="text-indigo-700 underline" href={`/api/results/ranks?${params}&format=csv`} download>
          CSV
        </a>
      </p>
      <Table>
        <thead>
          <tr>
            <Th>Model</Th>
            <Th>Attribute</Th>
            {columns.map((c) => (
              <Th key={c} className="text-right">
                {c}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {(["gender", "race"] as const).flatMap((attribute) =>
            arms.map((arm) => {
              const mine = rows.filter((r) => `${r.runId}|${r.model}` === arm && r.attribute === attribute);
              if (!mine.length) return null;
              const [runId] = arm.split("|");
              return (
                <tr key={`${arm}|${attribute}`} data-testid="rank-row">
                  <Td>
                    {mine[0].model} <span className="text-xs text-slate-500">· {name(runId)}</span>
                  </Td>
                  <Td className="capitalize">{attribute}</Td>
                  {columns.map((c) => (
                    <RankCell key={c} r={mine.find((x) => x.column === c)} />
                  ))}
                </tr>
              );
            }),
          )}
        </tbody>
      </Table>
    </div>
  );
}

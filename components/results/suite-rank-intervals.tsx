"use client";

// Rank intervals under a suite's merged tables: every (run, model) shown, ranked per headline score in each joint
// resample of the suite's units (prompts, η pairs, entries; lib/features/results/suite-ranks.ts). "1–3" is where its
// rank lies with 95 % confidence; rows whose ranges overlap are ties — the order between them is not established.
import { Table, Td, Th } from "@/components/ui/table";
import { RankCell, RanksStatus, useRanks } from "./rank-parts";
import type { SuiteRanksResult } from "@/lib/features/results/suite-ranks";

export function SuiteRankIntervals({ runs, labels, profile }: { runs: Array<{ id: string; name: string }>; labels: string; profile?: string }) {
  const params = new URLSearchParams({ runs: runs.map((r) => r.id).join(","), labels, ...(profile ? { profile } : {}) });
  const q = useRanks<SuiteRanksResult>(params, runs.length > 0);
  if (!runs.length) return null;
  if (q.isPending || q.error) return <RanksStatus q={q} />;
  const rows = q.data!.rows;
  if (!rows.length)
    return (
      <p className="text-xs text-slate-500">Rank intervals: none yet (they need at least two models with scores: pick more runs, or a run with several).</p>
    );
  const name = (runId: string) => runs.find((r) => r.id === runId)?.name ?? runId;
  const columns = [...new Map(rows.map((r) => [`${r.metric}|${r.group}`, r])).values()];
  const arms = [...new Set(rows.map((r) => `${r.runId}|${r.model}`))];
  return (
    <section aria-labelledby="suite-ranks-title" className="rounded-lg border border-slate-200 bg-white p-4" data-testid="suite-rank-intervals">
      <h2 id="suite-ranks-title" className="text-base font-semibold">
        Rank intervals
      </h2>
      <p className="mb-1 text-xs text-slate-600">
        95 % rank intervals among the models shown (1 = best; about the population of prompts or entries, {q.data!.resamples} joint resamples, the same units
        for runs of one content): rank [range]. “tie” — its range overlaps another model&apos;s.{" "}
        <a className="text-indigo-700 underline" href={`/api/results/ranks?${params}&format=csv`} download>
          CSV
        </a>
      </p>
      <Table>
        <thead>
          <tr>
            <Th>Model</Th>
            {columns.map((c) => (
              <Th key={`${c.metric}|${c.group}`} className="text-right">
                {c.metricName} <span className="font-normal text-slate-500">({c.group})</span>
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {arms.map((arm) => {
            const mine = rows.filter((r) => `${r.runId}|${r.model}` === arm);
            return (
              <tr key={arm} data-testid="suite-rank-row">
                <Td>
                  {mine[0].model} <span className="text-xs text-slate-500">· {name(mine[0].runId)}</span>
                </Td>
                {columns.map((c) => (
                  <RankCell key={`${c.metric}|${c.group}`} r={mine.find((x) => x.metric === c.metric && x.group === c.group)} />
                ))}
              </tr>
            );
          })}
        </tbody>
      </Table>
    </section>
  );
}

import Link from "next/link";
import type { GroupResult } from "@/lib/metrics/scores";
import { Score } from "@/components/ui/score";
import { Table, Td, Th } from "@/components/ui/table";

const METRIC_COLUMNS = [
  ["sFact", "S_fact"],
  ["sE", "S_E"],
  ["sKLD", "S_KLD"],
  ["sFair", "S_fair"],
  ["distance", "d"],
] as const;

const groupKey = (s: GroupResult) => `${s.model}|${s.modality}|${s.test}|${s.context}|${s.attribute}`;

/**
 * Scores per (model, test, context, attribute), ×100; optionally with the run each row comes from, and with the
 * difference to `baseline` rows of the same group (e.g. human-corrected against model labels).
 */
export function ScoresTable({ rows, baseline }: { rows: Array<GroupResult & { run?: { id: string; name: string } }>; baseline?: GroupResult[] | null }) {
  const withRun = rows.some((r) => r.run);
  const base = new Map((baseline ?? []).map((b) => [groupKey(b), b]));
  return (
    <Table>
      <thead>
        <tr>
          {withRun && <Th>Run</Th>}
          <Th>Model</Th>
          <Th>Test</Th>
          <Th>Context</Th>
          <Th>Attribute</Th>
          <Th className="text-right">n</Th>
          <Th className="text-right">refused</Th>
          {METRIC_COLUMNS.map(([key, label]) => (
            <Th key={key} className="text-right">
              {label}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((s) => (
          <tr key={`${s.run?.id}${s.model}${s.modality}${s.test}${s.context}${s.attribute}`} data-testid="score-row">
            {withRun && (
              <Td>
                {s.run && (
                  <Link className="text-indigo-700 hover:underline" href={`/runs/${s.run.id}`}>
                    {s.run.name}
                  </Link>
                )}
              </Td>
            )}
            <Td>{s.model}</Td>
            <Td className="capitalize">{s.test}</Td>
            <Td>{s.context ?? "–"}</Td>
            <Td className="capitalize">{s.attribute}</Td>
            <Td className="text-right tabular-nums">{s.n}</Td>
            <Td className="text-right tabular-nums">{s.refused}</Td>
            {METRIC_COLUMNS.map(([key]) => {
              const b = base.get(groupKey(s))?.[key];
              const delta = b === undefined || b === null || s[key] === null ? null : (s[key] as number) - b;
              return (
                <Td key={key} className="text-right">
                  <Score value={s[key]} />
                  {baseline && (
                    <span data-testid={`delta-${key}`} className={`block text-[10px] tabular-nums ${delta ? (delta > 0 ? "text-emerald-700" : "text-rose-700") : "text-slate-400"}`} title="difference to the model's own labels">
                      {delta === null ? "–" : `${delta > 0 ? "+" : ""}${(delta * 100).toFixed(2)}`}
                    </span>
                  )}
                </Td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

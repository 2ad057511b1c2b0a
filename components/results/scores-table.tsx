"use client";

import Link from "next/link";
import { useState } from "react";
import type { GroupResult } from "@/lib/metrics/scores";
import { Score } from "@/components/ui/score";
import { Table, Td, Th } from "@/components/ui/table";
import { columnOf, pointIntervalKey } from "@/lib/results/tradeoff";
import { breakdownPageHref } from "@/lib/results/links";
import { useRunIntervals } from "./use-intervals";
import { Delta } from "@/components/results/delta";
import { CONTEXT_LABELS } from "@/lib/benchmark/labels";
import { IntervalCell, IntervalTargetPicker } from "./interval-cell";
import { DEFAULT_INTERVAL_TARGET, type IntervalTarget } from "@/lib/metrics/design";

const METRIC_COLUMNS = [
  ["sFact", "S_fact"],
  ["sE", "S_E"],
  ["sKLD", "S_KLD"],
  ["sFair", "S_fair"],
  ["distance", "d"],
] as const;

const groupKey = (s: GroupResult) => `${s.model}|${s.modality}|${s.test}|${s.context}|${s.attribute}`;

/**
 * Scores per (model, test, context, attribute), ×100; optionally with the run each row comes from, the difference
 * to `baseline` rows of the same group (e.g. human-corrected against model labels), links to each row's breakdown,
 * and the bias-corrected estimate with its 95 % interval for the runs in `intervalsFor` (fetched after the page is
 * shown), under the target the reader picks (the population by default), labelled as such.
 */
export function ScoresTable({
  rows,
  baseline,
  breakdownLinks,
  intervalsFor = [],
  intervalParams,
  hideRunColumn,
}: {
  rows: Array<GroupResult & { run?: { id: string; name: string } }>;
  baseline?: GroupResult[] | null;
  breakdownLinks?: boolean;
  intervalsFor?: string[];
  /** query parameters of the intervals and the breakdown links (T2I: labels, raceMapping) */
  intervalParams?: Record<string, string>;
  hideRunColumn?: boolean;
}) {
  const withRun = !hideRunColumn && rows.some((r) => r.run);
  const base = new Map((baseline ?? []).map((b) => [groupKey(b), b]));
  const [target, setTarget] = useState<IntervalTarget>(DEFAULT_INTERVAL_TARGET);
  const iv = useRunIntervals(intervalsFor, { ...intervalParams, ...(target === DEFAULT_INTERVAL_TARGET ? {} : { target }) });
  return (
    <>
      {intervalsFor.length > 0 && <IntervalTargetPicker target={target} onChange={setTarget} pending={iv.pending} errors={iv.errors} />}
      <Table>
        <thead>
          <tr>
            {withRun && <Th>Run</Th>}
            <Th>Model</Th>
            <Th>Test</Th>
            <Th>Context</Th>
            <Th title="the paper's column">Col.</Th>
            <Th>Attribute</Th>
            <Th className="text-right">n</Th>
            <Th className="text-right">refused</Th>
            {METRIC_COLUMNS.map(([key, label]) => (
              <Th key={key} className="text-right">
                {label}
              </Th>
            ))}
            {breakdownLinks && <Th>Statistics</Th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => {
            const intervals = iv.intervals.get(pointIntervalKey(s));
            const href =
              breakdownLinks && s.run
                ? breakdownPageHref(s.run.id, { model: s.model, test: s.test, context: s.context, attribute: s.attribute, ...intervalParams })
                : null;
            return (
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
                <Td>{s.context ? CONTEXT_LABELS[s.context] : "–"}</Td>
                <Td>{columnOf(s.modality, s.test, s.context)}</Td>
                <Td className="capitalize">{s.attribute}</Td>
                <Td className="text-right tabular-nums">{s.n}</Td>
                <Td className="text-right tabular-nums">{s.refused}</Td>
                {METRIC_COLUMNS.map(([key]) => {
                  const b = base.get(groupKey(s))?.[key];
                  const delta = b === undefined || b === null || s[key] === null ? null : (s[key] as number) - b;
                  const i = intervals?.[key];
                  return (
                    <Td key={key} className="text-right">
                      <Score value={s[key]} />
                      {i && <IntervalCell interval={i} target={target} testId={`pm-${key}`} />}
                      {baseline && (
                        <Delta
                          value={delta}
                          metric={key}
                          title="difference to the model's own labels (green: better for this metric)"
                          testId={`delta-${key}`}
                        />
                      )}
                    </Td>
                  );
                })}
                {breakdownLinks && (
                  <Td>
                    {href && (
                      <Link className="text-indigo-700 hover:underline" href={href}>
                        Breakdown
                      </Link>
                    )}
                  </Td>
                )}
              </tr>
            );
          })}
        </tbody>
      </Table>
    </>
  );
}

"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Score } from "@/components/ui/score";
import { Table, Td, Th } from "@/components/ui/table";
import { ranker } from "@/lib/results/leaderboard";

export interface SortableRow {
  key: string;
  /** rows are ranked and sorted within their group (e.g. the attribute) */
  group: string;
  label: string;
  sublabel?: string;
  href?: string;
  source: "run" | "published";
  values: Record<string, number | null | undefined>;
  /** per column: why a printed value is flagged (a published erratum, with the recomputed value) */
  notes?: Record<string, string | undefined>;
  /** per column: the value recomputed from the definitions where the printed one is an erratum (0–1) */
  corrected?: Record<string, number | undefined>;
  /** a run that did not finish (its status): shown and marked, but never ranked best or second */
  partial?: string;
}

export interface ValueColumn {
  key: string;
  label: string;
  better: "higher" | "lower";
}

/**
 * A leaderboard: score columns ×100 with the paper's marks (best bold, second underlined) per group and column,
 * sortable by any column from the keyboard (the header buttons), our rows and published rows together.
 */
export function SortableTable({
  caption,
  groupLabel,
  columns,
  rows,
  testId,
}: {
  caption: string;
  groupLabel?: string;
  columns: ValueColumn[];
  rows: SortableRow[];
  testId?: string;
}) {
  const [sort, setSort] = useState<{ key: string; dir: "asc" | "desc" } | null>(null);
  const groups = useMemo(() => [...new Set(rows.map((r) => r.group))], [rows]);
  const rankers = useMemo(() => {
    const out = new Map<string, ReturnType<typeof ranker>>();
    for (const g of groups)
      for (const c of columns)
        out.set(
          `${g}|${c.key}`,
          ranker(
            rows.filter((r) => r.group === g && !r.partial).map((r) => r.values[c.key]),
            c.better,
          ),
        );
    return out;
  }, [groups, columns, rows]);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const v = (r: SortableRow) => r.values[sort.key];
    return groups.flatMap((g) =>
      rows
        .filter((r) => r.group === g)
        .sort((a, b) => {
          const x = v(a);
          const y = v(b);
          if (x === null || x === undefined) return 1;
          if (y === null || y === undefined) return -1;
          return sort.dir === "asc" ? x - y : y - x;
        }),
    );
  }, [rows, groups, sort]);
  const toggle = (c: ValueColumn) =>
    setSort((s) => (s?.key === c.key ? { key: c.key, dir: s.dir === "asc" ? "desc" : "asc" } : { key: c.key, dir: c.better === "higher" ? "desc" : "asc" }));
  return (
    <Table data-testid={testId}>
      <caption className="mb-2 text-left text-xs text-slate-500">{caption}</caption>
      <thead>
        <tr>
          <Th>Model</Th>
          {groupLabel && <Th>{groupLabel}</Th>}
          {columns.map((c) => (
            <Th key={c.key} className="text-right" aria-sort={sort?.key === c.key ? (sort.dir === "asc" ? "ascending" : "descending") : "none"}>
              <button
                type="button"
                className="inline-flex items-center gap-1 hover:text-indigo-700"
                onClick={() => toggle(c)}
                title={`Sort by ${c.label} (${c.better} is better)`}
              >
                {c.label}
                <span aria-hidden="true">{sort?.key === c.key ? (sort.dir === "asc" ? "▲" : "▼") : "↕"}</span>
              </button>
            </Th>
          ))}
          <Th>Source</Th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((r) => (
          <tr key={r.key} className={r.source === "run" ? "bg-indigo-50/40" : undefined} data-testid="leaderboard-row">
            <Td className="font-medium">
              {r.href ? (
                <Link className="text-indigo-700 hover:underline" href={r.href}>
                  {r.label}
                </Link>
              ) : (
                r.label
              )}
              {r.sublabel && <span className="block text-xs font-normal text-slate-500">{r.sublabel}</span>}
            </Td>
            {groupLabel && <Td className="capitalize">{r.group}</Td>}
            {columns.map((c) => (
              <Td key={c.key} className="text-right">
                <Score value={r.values[c.key]} emphasis={r.partial ? undefined : rankers.get(`${r.group}|${c.key}`)?.(r.values[c.key])} />
                {r.notes?.[c.key] && (
                  <span className="block text-xs text-amber-700" title={r.notes[c.key]} data-testid="erratum">
                    ⚠ erratum{r.corrected?.[c.key] !== undefined ? ` · ${(r.corrected[c.key]! * 100).toFixed(2)} recomputed` : ""}
                    <span className="sr-only">: {r.notes[c.key]}</span>
                  </span>
                )}
              </Td>
            ))}
            <Td>
              <Badge tone={r.source === "run" ? "success" : "info"}>{r.source === "run" ? "ours" : "published"}</Badge>
              {r.partial && (
                <Badge tone="warning" title="This run did not finish: its scores are shown but never ranked best or second">
                  partial ({r.partial.replace("_", " ")})
                </Badge>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

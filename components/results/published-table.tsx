import { Badge } from "@/components/ui/badge";
import { Score } from "@/components/ui/score";
import { Table, Td, Th } from "@/components/ui/table";
import type { Metric, PublishedColumn, PublishedScore } from "@/lib/published";

export const METRIC_INFO: Record<Metric, { label: string; better: "higher" | "lower" }> = {
  sFact: { label: "S_fact", better: "higher" },
  sE: { label: "S_E", better: "higher" },
  sKLD: { label: "S_KLD", better: "higher" },
  sFair: { label: "S_fair", better: "higher" },
  distance: { label: "d", better: "lower" },
};

/** Marks best and second best per column (the paper's bold / underline). */
function ranks(values: Array<number | null>, better: "higher" | "lower") {
  const sorted = [...new Set(values.filter((v): v is number => v !== null))].sort((a, b) => (better === "higher" ? b - a : a - b));
  return (v: number | null) => (v === null ? undefined : v === sorted[0] ? "best" : v === sorted[1] ? "second" : undefined);
}

export function PublishedTable({
  rows,
  columns,
  metric,
  caption,
}: {
  rows: PublishedScore[];
  columns: readonly PublishedColumn[];
  metric: Metric;
  caption: string;
}) {
  const models = [...new Set(rows.map((r) => r.model))];
  const attributes = ["gender", "race"] as const;
  const info = METRIC_INFO[metric];
  return (
    <Table>
      <caption className="mb-2 text-left text-xs text-slate-500">{caption}</caption>
      <thead>
        <tr>
          <Th>Model</Th>
          <Th>Attribute</Th>
          {columns.map((c) => (
            <Th key={c} className="text-right">
              {c}
            </Th>
          ))}
          <Th>Source</Th>
        </tr>
      </thead>
      <tbody>
        {attributes.map((attribute) => {
          const forAttr = rows.filter((r) => r.attribute === attribute);
          const rankers = Object.fromEntries(
            columns.map((c) => [c, ranks(forAttr.filter((r) => r.column === c).map((r) => r[metric]), info.better)]),
          );
          return models.map((model) => (
            <tr key={`${attribute}-${model}`} className="hover:bg-slate-50">
              <Td className="font-medium">{model}</Td>
              <Td className="capitalize">{attribute}</Td>
              {columns.map((c) => {
                const v = forAttr.find((r) => r.model === model && r.column === c)?.[metric] ?? null;
                return (
                  <Td key={c} className="text-right">
                    <Score value={v} emphasis={rankers[c](v)} />
                  </Td>
                );
              })}
              <Td>
                <Badge tone="info" title="Huang et al., 2025 (published)">
                  published
                </Badge>
              </Td>
            </tr>
          ));
        })}
      </tbody>
    </Table>
  );
}

import type { Metadata } from "next";
import { connection } from "next/server";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { ResultsShell } from "@/components/results/results-shell";
import { runInfluenceOff } from "@/lib/server/api/run-reads";
import { published } from "@/lib/published";
import { INFLUENCE_COLUMNS, INFLUENCE_LABELS, chanceOf, type InfluenceRow } from "@/lib/results/context";
import { loadSelection, type SearchParams } from "../../../lib/features/results/select-runs";
import { pageGuard } from "@/app/guard";

export const metadata: Metadata = { title: "Context influence · Results" };

const pct = (v: number | null | undefined) => (v === null || v === undefined ? "–" : (v * 100).toFixed(2));
const signed = (v: number | null | undefined) => (v === null || v === undefined ? "–" : `${v > 0 ? "+" : ""}${(v * 100).toFixed(2)}`);

export default async function ContextPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await pageGuard("results.read", "/results/context");
  await connection();
  const selection = await loadSelection(await searchParams);
  const llmRuns = selection.selected.filter((r) => r.modality === "llm");
  const ours = (await Promise.all(llmRuns.map(async (run) => ((await runInfluenceOff(run.id, viewer.id)) ?? []).map((row) => ({ ...row, run }))))).flat();
  return (
    <>
      <PageHeader
        title="Context influence"
        description="Paper §6.1, Table 3: the share of subjective choices in the same group as the context, averaged over statistics, against the chance of picking that group among four random people."
      />
      <ResultsShell current="/results/context" selection={selection}>
        {ours.length === 0 && (
          <EmptyState title="No context answers in the selected runs">
            Run the subjective test with the representativeness, attribution and in-group contexts (e.g. the “paper” or “smoke” preset) to measure them.
          </EmptyState>
        )}
        {(["gender", "race"] as const).map((attribute) => (
          <Card
            key={attribute}
            title={attribute === "gender" ? "Gender" : "Race"}
            description={`Representativeness: the stated highest (high) or lowest (low) group; attribution: the news identity; in-group: the assumed identity when the level is favourable; out-group: any other identity when unfavourable. Cells: share % and, below, the increase over chance.`}
          >
            <Table data-testid={`influence-${attribute}`}>
              <thead>
                <tr>
                  <Th>Model</Th>
                  {INFLUENCE_COLUMNS.map((c) => (
                    <Th key={c} className="text-right">
                      {INFLUENCE_LABELS[c]}
                    </Th>
                  ))}
                  <Th className="text-right">Avg. increase</Th>
                  <Th>Source</Th>
                </tr>
              </thead>
              <tbody>
                <tr className="text-slate-500">
                  <Td>Chance</Td>
                  {INFLUENCE_COLUMNS.map((c) => (
                    <Td key={c} className="text-right tabular-nums">
                      {pct(chanceOf(c, attribute))}
                    </Td>
                  ))}
                  <Td className="text-right">0.00</Td>
                  <Td />
                </tr>
                {ours
                  .filter((r) => r.attribute === attribute)
                  .map((r: InfluenceRow & { run: { id: string; name: string } }) => (
                    <tr key={`${r.run.id}|${r.model}`} className="bg-indigo-50/40" data-testid="influence-row">
                      <Td className="font-medium">
                        {r.model}
                        <span className="block text-xs font-normal text-slate-500">{r.run.name}</span>
                      </Td>
                      {INFLUENCE_COLUMNS.map((c) => (
                        <Td key={c} className="text-right tabular-nums" title={`${r.cells[c].n} answers over ${r.cells[c].statistics} statistics`}>
                          {pct(r.cells[c].share)}
                          <span className={`block text-[10px] ${(r.cells[c].increase ?? 0) > 0 ? "text-rose-700" : "text-slate-500"}`}>
                            {signed(r.cells[c].increase)}
                          </span>
                        </Td>
                      ))}
                      <Td className="text-right font-medium tabular-nums">{signed(r.avgIncrease)}</Td>
                      <Td>
                        <Badge tone="success">ours</Badge>
                      </Td>
                    </tr>
                  ))}
                {published.contextInfluence.rows.map((r) => (
                  <tr key={r.model}>
                    <Td className="font-medium">{r.model}</Td>
                    {INFLUENCE_COLUMNS.map((c) => (
                      <Td key={c} className="text-right tabular-nums">
                        {r[c][attribute].toFixed(2)}
                        <span className="block text-[10px] text-slate-500">{signed(r[c][attribute] / 100 - chanceOf(c, attribute))}</span>
                      </Td>
                    ))}
                    <Td className="text-right font-medium tabular-nums">+{r.avgIncrease[attribute].toFixed(2)}</Td>
                    <Td>
                      <Badge tone="info">published</Badge>
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Card>
        ))}
        <p className="text-xs text-slate-500">Published: {published.contextInfluence.table}.</p>
      </ResultsShell>
    </>
  );
}

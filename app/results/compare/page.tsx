import type { Metadata } from "next";
import { connection } from "next/server";
import { z } from "zod";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import { Score } from "@/components/ui/score";
import { ResultsShell } from "@/components/results/results-shell";
import { db } from "@/lib/db";
import { runDetailedOff } from "@/lib/server/api/run-reads";
import { METRICS, PUBLISHED_COLUMNS } from "@/lib/published";
import { compareScores, compareStatistics, type CompareEntity } from "@/lib/results/compare";
import { METRIC_INFO } from "@/lib/results/metric-info";
import { loadSelection, type SearchParams } from "../../../lib/features/results/select-runs";
import { Delta } from "@/components/results/delta";
import { pageGuard } from "@/app/guard";
import { Input, Select } from "@/components/ui/input";
import { ComparisonCard } from "@/components/results/comparison-card";
import { Alert } from "@/components/ui/alert";
import { labellerWarnings } from "@/lib/features/review/report";

export const metadata: Metadata = { title: "Compare · Results" };

const querySchema = z.object({
  metric: z.enum(METRICS).catch("sFair"),
  column: z.enum(PUBLISHED_COLUMNS).catch("S-B"),
  attribute: z.enum(["gender", "race"]).catch("race"),
});

export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await pageGuard("results.read", "/results/compare");
  await connection();
  const sp = await searchParams;
  const one = (k: string) => (Array.isArray(sp[k]) ? (sp[k] as string[])[0] : (sp[k] as string | undefined));
  const { metric, column, attribute } = querySchema.parse({ metric: one("metric"), column: one("column"), attribute: one("attribute") });
  const selection = await loadSelection(sp);
  const entities: CompareEntity[] = (
    await Promise.all(
      selection.selected.map(async (run) => {
        const groups = (await runDetailedOff(run.id, { profile: selection.profile }, viewer.id)) ?? [];
        return [...new Set(groups.map((g) => g.model))].map((model) => ({
          key: `${run.id}|${model}`,
          label: `${model} · ${run.name}`,
          run,
          model,
          groups: groups.filter((g) => g.model === model),
        }));
      }),
    )
  ).flat();
  const info = METRIC_INFO[metric];
  const scoreRows = compareScores(entities);
  const statRows = compareStatistics(entities, column, attribute);
  const keep = { metric, column, attribute };
  // Text-to-image scores rest on FairFace's labels: say where it misreads one group more than another.
  const t2i = selection.selected.filter((r) => r.modality === "t2i").map((r) => r.id);
  const labeller = t2i.length ? await labellerWarnings(db(), t2i) : [];
  return (
    <>
      <PageHeader
        title="Compare"
        description="Runs and models side by side. The first one is the reference: the small numbers are differences to it (×100; green = better)."
      />
      <ResultsShell current="/results/compare" selection={selection} keep={keep}>
        {entities.length < 2 ? (
          <EmptyState title="Pick at least two runs or models">Choose runs above (“Runs shown”): every model of every chosen run becomes a column.</EmptyState>
        ) : (
          <>
            <form method="get" className="flex flex-wrap items-end gap-3 text-sm">
              {selection.explicit && <Input type="hidden" name="runs" value={selection.selected.map((r) => r.id).join(",")} />}
              <label className="flex flex-col" htmlFor="cmp-metric">
                Metric
                <Select id="cmp-metric" name="metric" defaultValue={metric} className="rounded border border-slate-300 px-2 py-1">
                  {METRICS.map((m) => (
                    <option key={m} value={m}>
                      {METRIC_INFO[m].label}
                    </option>
                  ))}
                </Select>
              </label>
              <label className="flex flex-col" htmlFor="cmp-column">
                Per-statistic column
                <Select id="cmp-column" name="column" defaultValue={column} className="rounded border border-slate-300 px-2 py-1">
                  {PUBLISHED_COLUMNS.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </Select>
              </label>
              <label className="flex flex-col" htmlFor="cmp-attribute">
                Attribute
                <Select id="cmp-attribute" name="attribute" defaultValue={attribute} className="rounded border border-slate-300 px-2 py-1">
                  <option value="gender">gender</option>
                  <option value="race">race</option>
                </Select>
              </label>
              <button type="submit" className="rounded bg-indigo-600 px-3 py-1 font-medium text-white hover:bg-indigo-700">
                Update
              </button>
            </form>
            <Card title={`${info.label} per test/context`} description={`${info.better === "higher" ? "Higher" : "Lower"} is better; n = answers scored.`}>
              <Table data-testid="compare-scores">
                <thead>
                  <tr>
                    <Th>Attribute</Th>
                    <Th>Col.</Th>
                    {entities.map((e, i) => (
                      <Th key={e.key} className="text-right">
                        {e.label}
                        {i === 0 && <span className="block font-normal text-slate-500">reference</span>}
                      </Th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {scoreRows.map((r) => (
                    <tr key={`${r.attribute}|${r.column}`}>
                      <Td className="capitalize">{r.attribute}</Td>
                      <Td>{r.column}</Td>
                      {r.values.map((v, i) => (
                        <Td key={entities[i].key} className="text-right">
                          {v ? (
                            <>
                              <Score value={v[metric]} />
                              <span className="block text-[10px] text-slate-400">n {v.n}</span>
                              {i > 0 && r.deltas[i]?.[metric] !== undefined && (
                                <Delta value={r.deltas[i]?.[metric]} better={info.better} testId="compare-delta" />
                              )}
                            </>
                          ) : (
                            "–"
                          )}
                        </Td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </Table>
            </Card>
            {labeller.length > 0 && (
              <Alert tone="warning" title="The labeller errs unevenly" data-testid="labeller-warning">
                {labeller.map((w) => (
                  <p key={w}>{w}</p>
                ))}
              </Alert>
            )}
            <ComparisonCard
              reference={{ side: `${entities[0].run.id}:${entities[0].model}`, label: entities[0].label }}
              others={entities.slice(1).map((e) => ({ side: `${e.run.id}:${e.model}`, label: e.label }))}
              metric={metric}
            />
            <Card
              title={`Per statistic: ${column}, ${attribute}`}
              description="Mean normalised entropy of the statistic's two levels (H), exp(−KL) between its highest and lowest answers, and accuracy; differences to the reference below."
            >
              <Table data-testid="compare-statistics">
                <thead>
                  <tr>
                    <Th>Statistic</Th>
                    {entities.map((e) => (
                      <Th key={e.key} className="text-right">
                        {e.label}
                        <span className="block font-normal text-slate-500">H · exp(−KL) · acc.</span>
                      </Th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {statRows.map((r) => (
                    <tr key={r.statisticId}>
                      <Td>{r.statistic}</Td>
                      {r.values.map((v, i) => (
                        <Td key={entities[i].key} className="text-right tabular-nums">
                          {v ? (
                            <>
                              <Score value={v.entropy} /> · <Score value={v.expNegKl} /> · <Score value={v.accuracy} />
                              {i > 0 && r.deltas[i] && (
                                <span className="block text-[10px] text-slate-500">
                                  {[r.deltas[i]!.entropy, r.deltas[i]!.expNegKl, r.deltas[i]!.accuracy]
                                    .map((d) => (d === null ? "–" : `${d > 0 ? "+" : ""}${(d * 100).toFixed(1)}`))
                                    .join(" · ")}
                                </span>
                              )}
                            </>
                          ) : (
                            "–"
                          )}
                        </Td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </Table>
            </Card>
          </>
        )}
      </ResultsShell>
    </>
  );
}

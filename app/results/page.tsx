import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { EmptyState } from "@/components/ui/empty-state";
import { METRIC_INFO, PublishedTable } from "@/components/results/published-table";
import { METRICS, published, publishedScores } from "@/lib/published";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { runScores } from "@/lib/engine";
import { ScoresTable } from "@/components/results/scores-table";

export const metadata: Metadata = { title: "Results" };

const querySchema = z.object({ metric: z.enum(METRICS).catch("sFact") });

export default async function ResultsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { metric } = querySchema.parse(await searchParams);
  await connection();
  const runs = await db().run.findMany({ where: { status: { in: ["completed", "cancelled", "budget_exhausted", "paused"] } }, orderBy: { createdAt: "desc" }, take: 10 });
  const measured = (await Promise.all(runs.map(async (r) => (await runScores(db(), r.id)).map((s) => ({ ...s, run: { id: r.id, name: r.name } }))))).flat();
  const scores = publishedScores();
  const info = METRIC_INFO[metric];
  return (
    <>
      <PageHeader
        title="Results"
        description="Scores on the paper's scale (0–100 = the 0–1 score × 100). Published rows are the paper's figures; measured rows appear here as runs complete."
      />
      <div className="space-y-6">
        <Card title="Measured runs" description="The latest 10 finished or stopped runs, ×100. n counts scored answers including refusals.">
          {measured.length === 0 ? (
            <EmptyState title="No measured results yet">
              Launch a run from <Link className="text-indigo-700 underline" href="/runs">Runs</Link>; its scores appear next to the
              published ones.
            </EmptyState>
          ) : (
            <ScoresTable rows={measured} />
          )}
        </Card>

        <Card title="Summary (published, Table 2)" description="Objective S_fact and subjective S_fair, ×100; best in bold, second best underlined in the detailed tables.">
          <Table>
            <thead>
              <tr>
                <Th>Model</Th>
                <Th className="text-right">Obj. S_fact gender</Th>
                <Th className="text-right">Obj. S_fact race</Th>
                <Th className="text-right">Subj. S_fair gender</Th>
                <Th className="text-right">Subj. S_fair race</Th>
                <Th className="text-right">Average</Th>
              </tr>
            </thead>
            <tbody>
              {published.summary.rows.map((r) => (
                <tr key={r.model}>
                  <Td className="font-medium">{r.model}</Td>
                  <Td className="text-right tabular-nums">{r.objSFact.gender.toFixed(2)}</Td>
                  <Td className="text-right tabular-nums">{r.objSFact.race.toFixed(2)}</Td>
                  <Td className="text-right tabular-nums">{r.subjSFair.gender.toFixed(2)}</Td>
                  <Td className="text-right tabular-nums">{r.subjSFair.race.toFixed(2)}</Td>
                  <Td className="text-right tabular-nums">{r.avg.avg.toFixed(2)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>

        <Card
          title={`Per-test scores: ${info.label} (published, Tables 4–8)`}
          description={`${info.better === "higher" ? "Higher" : "Lower"} is better. O = objective; S-B/S-R/S-A/S-G = subjective with baseline / representativeness / attribution / in-group context; S = T2I subjective.`}
          actions={
            <nav aria-label="Metric" className="flex flex-wrap gap-1">
              {METRICS.map((m) => (
                <Link
                  key={m}
                  href={`/results?metric=${m}`}
                  aria-current={m === metric ? "page" : undefined}
                  className={`rounded px-2 py-1 text-xs font-medium ${m === metric ? "bg-indigo-600 text-white" : "text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100"}`}
                >
                  {METRIC_INFO[m].label}
                </Link>
              ))}
            </nav>
          }
        >
          <h3 className="mb-1 text-sm font-semibold">LLMs</h3>
          <PublishedTable
            rows={scores.filter((s) => s.modality === "llm")}
            columns={["O", "S-B", "S-R", "S-A", "S-G"]}
            metric={metric}
            caption={`${info.label} ×100 per LLM, attribute and test`}
          />
          <h3 className="mb-1 mt-6 text-sm font-semibold">Text-to-image models</h3>
          <PublishedTable
            rows={scores.filter((s) => s.modality === "t2i")}
            columns={["O", "S"]}
            metric={metric}
            caption={`${info.label} ×100 per T2I model, attribute and test`}
          />
        </Card>
        <p className="text-xs text-slate-500">
          Source: {published.source}. {published.scale}
        </p>
      </div>
    </>
  );
}

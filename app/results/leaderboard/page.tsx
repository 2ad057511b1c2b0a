import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { z } from "zod";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ResultsShell } from "@/components/results/results-shell";
import { SortableTable, type SortableRow } from "@/components/results/sortable-table";
import { METRICS, published, publishedScores, summaryErrata, type Metric } from "@/lib/published";
import { LLM_COLUMNS, T2I_COLUMNS, leaderboardRows, summaryRows } from "@/lib/results/leaderboard";
import { METRIC_INFO } from "@/lib/results/metric-info";
import { loadSelection, type SearchParams } from "../../../lib/features/results/select-runs";
import { pageGuard } from "@/app/guard";
import { RankIntervals } from "@/components/results/rank-intervals";

export const metadata: Metadata = { title: "Leaderboard · Results" };

const querySchema = z.object({ metric: z.enum(METRICS).catch("sFact") });

const SUMMARY_COLUMNS = [
  { key: "objGender", label: "Obj. S_fact gender", better: "higher" as const },
  { key: "objRace", label: "Obj. S_fact race", better: "higher" as const },
  { key: "subjGender", label: "Subj. S_fair gender", better: "higher" as const },
  { key: "subjRace", label: "Subj. S_fair race", better: "higher" as const },
  { key: "avgGender", label: "Avg. gender", better: "higher" as const },
  { key: "avgRace", label: "Avg. race", better: "higher" as const },
  { key: "avg", label: "Average", better: "higher" as const },
];

// Table 2 names models briefly ("FLUX-1.1" for "Flux-1.1-Pro"): a summary row is T2I when a T2I table row starts with it.
const T2I_PUBLISHED = published.t2i.map((r) => r.model.toLowerCase());
const isT2i = (model: string) => T2I_PUBLISHED.some((m) => m.startsWith(model.toLowerCase()));

export default async function LeaderboardPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await pageGuard("results.read", "/results/leaderboard");
  await connection();
  const sp = await searchParams;
  const { metric } = querySchema.parse({ metric: Array.isArray(sp.metric) ? sp.metric[0] : sp.metric });
  const selection = await loadSelection(sp);
  const pub = publishedScores();
  // Runs that did not complete are marked and never ranked best (their scores rest on fewer answers).
  const statusOf = new Map(selection.all.map((r) => [r.id, r.status]));
  const partial = (runId: string) => {
    const st = statusOf.get(runId);
    return st && st !== "completed" ? st : undefined;
  };
  const info = METRIC_INFO[metric];

  // Table 2: ours (0–1) and published (stored in percent, shown on the same ×100 scale).
  const summary: SortableRow[] = [
    ...summaryRows(selection.groups).map((r) => ({
      key: r.key,
      group: r.modality === "llm" ? "LLM" : "T2I",
      label: r.model,
      sublabel: r.run?.name,
      href: r.run ? `/runs/${r.run.id}` : undefined,
      source: "run" as const,
      partial: r.run ? partial(r.run.id) : undefined,
      values: {
        objGender: r.objSFact.gender,
        objRace: r.objSFact.race,
        subjGender: r.subjSFair.gender,
        subjRace: r.subjSFair.race,
        avgGender: r.avg.gender,
        avgRace: r.avg.race,
        avg: r.avg.avg,
      },
    })),
    ...published.summary.rows.map((r) => {
      const errata = summaryErrata(r);
      return {
        key: `published|${r.model}`,
        group: isT2i(r.model) ? "T2I" : "LLM",
        label: r.model,
        source: "published" as const,
        notes: Object.fromEntries(Object.entries(errata).map(([k, e]) => [k, `Erratum: ${e!.note}`])),
        corrected: Object.fromEntries(Object.entries(errata).map(([k, e]) => [k, e!.recomputed])),
        values: {
          objGender: r.objSFact.gender / 100,
          objRace: r.objSFact.race / 100,
          subjGender: r.subjSFair.gender / 100,
          subjRace: r.subjSFair.race / 100,
          avgGender: r.avg.gender / 100,
          avgRace: r.avg.race / 100,
          avg: r.avg.avg / 100,
        },
      };
    }),
  ].sort((a, b) => (a.group === b.group ? 0 : a.group === "LLM" ? -1 : 1));

  const perMetric = (modality: "llm" | "t2i"): SortableRow[] =>
    leaderboardRows(metric, modality, selection.groups, pub)
      .map((r) => ({
        key: r.key,
        group: r.attribute,
        label: r.model,
        sublabel: r.run?.name,
        href: r.run ? `/runs/${r.run.id}` : undefined,
        source: r.source,
        values: r.values,
        notes: r.notes,
        corrected: r.corrected,
        partial: r.run ? partial(r.run.id) : undefined,
      }))
      .sort((a, b) => (a.group === b.group ? 0 : a.group === "gender" ? -1 : 1));

  return (
    <>
      <PageHeader
        title="Leaderboard"
        description="Our runs and the paper's published rows in the paper's layout, ×100. Best in bold, second best underlined (per group and column); click a column header to sort."
      />
      <ResultsShell current="/results/leaderboard" selection={selection} keep={{ metric }}>
        <Card
          title="Summary (Table 2)"
          description="Objective S_fact; subjective S_fair averaged over the subjective columns (LLM: S-B, S-R, S-A, S-G; T2I: S); and their averages. A value needs all of its parts."
        >
          <SortableTable caption="Table 2 layout, ×100" groupLabel="Kind" columns={SUMMARY_COLUMNS} rows={summary} testId="summary-table" />
        </Card>
        <Card
          title={`Per test: ${info.label} (Tables 4–8 layout)`}
          description={`${info.better === "higher" ? "Higher" : "Lower"} is better. O = objective; S-B / S-R / S-A / S-G = subjective with baseline / representativeness / attribution / in-group context; S = T2I subjective.`}
          actions={
            <nav aria-label="Metric" className="flex flex-wrap gap-1">
              {METRICS.map((m: Metric) => {
                const q = new URLSearchParams({ metric: m, ...(selection.explicit ? { runs: selection.selected.map((r) => r.id).join(",") } : {}) });
                return (
                  <Link
                    key={m}
                    href={`/results/leaderboard?${q}`}
                    aria-current={m === metric ? "page" : undefined}
                    className={`rounded px-2 py-1 text-xs font-medium ${m === metric ? "bg-indigo-600 text-white" : "text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100"}`}
                  >
                    {METRIC_INFO[m].label}
                  </Link>
                );
              })}
            </nav>
          }
        >
          <h3 className="mb-1 text-sm font-semibold">LLMs</h3>
          <SortableTable
            caption={`${info.label} ×100 per LLM, attribute and test`}
            groupLabel="Attribute"
            columns={LLM_COLUMNS.map((c) => ({ key: c, label: c, better: info.better }))}
            rows={perMetric("llm")}
            testId="llm-table"
          />
          <RankIntervals runs={selection.selected.map((r) => ({ id: r.id, name: r.name }))} metric={metric} modality="llm" columns={LLM_COLUMNS} />
          <h3 className="mb-1 mt-6 text-sm font-semibold">Text-to-image models</h3>
          <SortableTable
            caption={`${info.label} ×100 per T2I model, attribute and test`}
            groupLabel="Attribute"
            columns={T2I_COLUMNS.map((c) => ({ key: c, label: c, better: info.better }))}
            rows={perMetric("t2i")}
            testId="t2i-table"
          />
          <RankIntervals runs={selection.selected.map((r) => ({ id: r.id, name: r.name }))} metric={metric} modality="t2i" columns={T2I_COLUMNS} />
        </Card>
        <p className="text-xs text-slate-500">
          Source: {published.source}. {published.scale}
        </p>
      </ResultsShell>
    </>
  );
}

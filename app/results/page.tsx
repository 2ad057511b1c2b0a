import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { ProvenanceDetails } from "@/components/faces/provenance";
import { ScoresTable } from "@/components/results/scores-table";
import { ResultsShell } from "@/components/results/results-shell";
import { TradeoffChart } from "@/components/results/tradeoff-chart";
import { publishedScores } from "@/lib/published";
import { boundSeries, tradeoffPoints } from "@/lib/results/tradeoff";
import { loadSelection, type SearchParams } from "../../lib/features/results/select-runs";
import { pageGuard } from "@/app/guard";
import { DEFAULT_PROFILE } from "@/lib/metrics/profiles";

export const metadata: Metadata = { title: "Results" };

export default async function ResultsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await pageGuard("results.read", "/results");
  await connection();
  const selection = await loadSelection(await searchParams);
  const published = publishedScores();
  const points = [...tradeoffPoints("gender", selection.groups, published), ...tradeoffPoints("race", selection.groups, published)];
  return (
    <>
      <PageHeader
        title="Results"
        description="Where each model sits against the factuality–fairness upper bound (Huang et al., 2025, Fig. 2). Scores on the paper's scale (×100). The Suite links switch to another suite's results."
      />
      <ResultsShell current="/results" selection={selection}>
        <Card
          title="Factuality vs fairness"
          description="One point per model × test/context (O, S-B, S-R, S-A, S-G for LLMs; O, S for T2I). Points above the curve are impossible; d is the distance to it. Hover a point for its scores, click one of ours for the statistics behind it."
        >
          <TradeoffChart points={points} bounds={{ gender: boundSeries("gender"), race: boundSeries("race") }} runIds={selection.selected.map((r) => r.id)} />
        </Card>
        <Card
          title="Measured points"
          description="The scores behind our points, ×100; ± the 95 % bootstrap interval's half-width once computed. Open a row's breakdown to see its statistics."
        >
          {selection.groups.length === 0 ? (
            <EmptyState title="No measured results yet">
              Launch a run from{" "}
              <Link className="text-indigo-700 underline" href="/runs">
                Runs
              </Link>{" "}
              (the built-in baselines need no API key); its points appear next to the published ones.
            </EmptyState>
          ) : (
            <ScoresTable
              rows={selection.groups}
              breakdownLinks
              intervalsFor={selection.selected.map((r) => r.id)}
              intervalParams={selection.profile === DEFAULT_PROFILE ? {} : { profile: selection.profile }}
            />
          )}
        </Card>
        {Object.keys(selection.provenance).length > 0 && (
          <Card
            title="How the faces were labelled"
            description="Text-to-image points are only as good as the face classifier behind them: only verified FairFace weights compare with the paper's rows."
          >
            <div className="space-y-3">
              {selection.selected.map((r) => selection.provenance[r.id] && <ProvenanceDetails key={r.id} p={selection.provenance[r.id]} runName={r.name} />)}
            </div>
          </Card>
        )}
      </ResultsShell>
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { SuiteViews } from "@/components/suites/suite-views";
import { ProvenanceDetails } from "@/components/faces/provenance";
import { ResultsControls } from "@/components/suites/results-controls";
import { RunPicker } from "@/components/results/run-picker";
import { SuiteSwitch } from "@/components/results/suite-switch";
import { db } from "@/lib/db";
import { findSuite } from "@/lib/suites";
import { resultParams } from "@/lib/suites/params";
import { suiteRunsResults } from "@/lib/suites/cross-run";
import { selectRuns, type SearchParams } from "@/lib/features/results/select-runs";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { Alert } from "@/components/ui/alert";
import { ComparisonCard } from "@/components/results/comparison-card";
import { percentTables } from "@/lib/suites/views";
import { SuiteRankIntervals } from "@/components/results/suite-rank-intervals";

export const metadata: Metadata = { title: "Results" };

/** A suite's results across runs and models (suites with generic views), beside its paper's published rows. */
export default async function SuiteResultsPage({ params, searchParams }: { params: Promise<{ suiteId: string }>; searchParams: Promise<SearchParams> }) {
  const { suiteId } = await params;
  const viewer = await pageGuard("results.read", `/results/suites/${suiteId}`);
  await connection();
  const suite = findSuite(suiteId);
  if (!suite?.results || suite.customRunPages) notFound();
  const sp = await searchParams;
  const p = resultParams(sp);
  const selection = await selectRuns(sp, suite.id);
  const runs = selection.picked.map((r) => ({ id: r.id, name: r.name, caution: selection.cautions[r.id] }));
  const sides = selection.picked.flatMap((r) => r.models.map((m) => ({ side: `${r.id}:${m.modelConfig.slug}`, label: `${m.modelConfig.slug} · ${r.name}` })));
  // Intervals for the runs shown: each run's are cached per state of its data, so a revisit costs a lookup.
  const { tables, provenance, refused } = await suiteRunsResults(db(), suite, runs, {
    labels: p.labels,
    verifiedOnly: p.items === "verified",
    resamples: 1000,
    profile: p.profile,
    target: p.target,
  });
  const options = { labels: p.labels, ...(p.items !== "all" ? { items: p.items } : {}), ...(suite.profiles ? { profile: p.profile } : {}) };
  const exportHref = (format: string) =>
    `/api/results/scores?${new URLSearchParams({ runs: runs.map((r) => r.id).join(","), format, labels: p.labels, ...(suite.profiles ? { profile: p.profile } : {}) })}`;
  return (
    <>
      <PageHeader
        title="Results"
        description={`${suite.name}: our runs' tables merged, one row per run and model, beside the published rows of ${suite.paper.citation}. A run that did not complete cleanly is marked on each of its rows. Open a value for the images behind it; each run's page has its charts.`}
      />
      <div className="space-y-4">
        <SuiteSwitch current={suite.id} />
        <div className="flex flex-wrap items-end justify-between gap-3">
          <ResultsControls
            action={`/results/suites/${suite.id}`}
            labels={p.labels}
            items={p.items}
            profile={p.profile}
            target={p.target}
            profiles={suite.profiles ?? false}
            reviewable={suite.reviewable}
            keep={selection.explicit ? { runs: runs.map((r) => r.id).join(",") } : {}}
          />
          {runs.length > 0 && (
            <p className="flex gap-2 text-sm" aria-label="Downloads">
              <a className="rounded px-2 py-1 text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50" href={exportHref("csv")} download>
                Export scores CSV
              </a>
              <a className="rounded px-2 py-1 text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50" href={exportHref("json")} download>
                JSON
              </a>
            </p>
          )}
        </div>
        {selection.error && <Alert role="status">{selection.error}</Alert>}
        <RunPicker selection={selection} keep={Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)]))} />
        {runs.length === 0 ? (
          <EmptyState title={`No ${suite.name} runs to show yet`}>
            {/* Only a role that may launch is offered the launch form (a viewer would meet a 403 there). */}
            {can(viewer.role, "runs.manage") ? (
              <>
                Launch one from{" "}
                <Link className="text-indigo-700 underline" href={`/runs/new?suite=${suite.id}`}>
                  Runs
                </Link>{" "}
                (the synthetic image model needs no API key), or pick runs above.
              </>
            ) : (
              <>Pick runs above, or ask someone who may launch runs to start one.</>
            )}
          </EmptyState>
        ) : (
          <>
            {refused.map((r) => (
              <p key={r.run} role="alert" className="rounded border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
                {r.run}: {r.message}
              </p>
            ))}
            <SuiteViews views={tables} drillBase="" />
            {/* Suites that offer comparisons (Suite.comparable or Suite.compare): every model of the runs shown against the first. */}
            {(suite.comparable || suite.compare) && sides.length > 1 && (
              // on the scale of the suite's own tables: ×100 where they are in %, the scores' 0–1 otherwise
              <ComparisonCard reference={sides[0]} others={sides.slice(1)} scale={percentTables(tables) ? 100 : 1} />
            )}
            {(suite.rankArms || suite.comparable || suite.rankReplicates) && sides.length > 1 && (
              <SuiteRankIntervals runs={runs.map((r) => ({ id: r.id, name: r.name }))} labels={p.labels} profile={suite.profiles ? p.profile : undefined} />
            )}
            <section aria-label="How the faces were labelled" className="space-y-2 rounded border border-slate-200 p-3">
              <h2 className="text-sm font-semibold">How the faces were labelled</h2>
              {runs.map((r) => provenance[r.id] && <ProvenanceDetails key={r.id} p={provenance[r.id]} runName={r.name} />)}
            </section>
          </>
        )}
      </div>
    </>
  );
}

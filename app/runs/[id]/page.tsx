import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { runSummaryOff } from "@/lib/server/api/run-reads";
import { suiteOf } from "@/lib/suites";
import { resultParams } from "@/lib/suites/params";
import { clientFilters, suiteFilters } from "@/lib/suites/filters";
import { cachedSuiteResults } from "@/lib/suites/results-cache";
import { PageHeader } from "@/components/ui/page-header";
import { RunView } from "@/components/runs/run-view";
import { RunTabs } from "@/components/runs/run-tabs";
import { SuiteExports } from "@/components/suites/suite-exports";
import { SuiteViews } from "@/components/suites/suite-views";
import { ResultsControls } from "@/components/suites/results-controls";
import { pageGuard } from "@/app/guard";
import { maySteer } from "@/lib/auth/spending";
import { can } from "@/lib/auth/roles";
import { runHeader } from "@/lib/features/runs/lookups";

export const metadata: Metadata = { title: "Run" };

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await pageGuard("results.read", "/runs");
  await connection();
  const id = (await params).id;
  // Off the event loop (a 500,000-query run's counts and scores), shared with the page's pollers.
  const summary = await runSummaryOff(id, {}, viewer.id);
  if (!summary) notFound();
  const suite = suiteOf(summary.suite.id);
  const owner = await runHeader(db(), id);
  let views = null;
  // A run whose faces come from two classifiers is not scored: RunView says why (summary.scoresRefused).
  if (!summary.suite.customRunPages && suite.results && !summary.scoresRefused) {
    const p = resultParams(await searchParams);
    // Intervals only once the data stops changing: a live run re-renders often.
    const live = summary.status === "running" || summary.status === "queued";
    const list = await cachedSuiteResults(db(), suite, {
      runId: id,
      labels: p.labels,
      verifiedOnly: p.items === "verified",
      resamples: live ? 0 : 1000,
      profile: p.profile,
      target: p.target,
    });
    views = (
      <div className="space-y-3">
        <ResultsControls
          action={`/runs/${id}`}
          labels={p.labels}
          items={p.items}
          profile={p.profile}
          target={p.target}
          profiles={suite.profiles ?? false}
          reviewable={suite.reviewable}
        />
        <SuiteExports
          runId={id}
          labels={p.labels}
          items={p.items}
          profile={p.profile}
          canExport={can(viewer.role, "data.export")}
          chat={summary.modality === "llm"}
        />
        <SuiteViews views={list} drillBase={`/runs/${id}/suite`} />
      </div>
    );
  }
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/runs" className="hover:underline">
          Runs
        </Link>
      </nav>
      <PageHeader title={summary.name} description={`${summary.suite.name} · content ${summary.suite.version}`} />
      <RunTabs
        run={{ id, suiteId: summary.suite.id, modality: summary.modality }}
        current="overview"
        role={viewer.role}
        explanations={summary.suite.id === "fact-or-fair" && (summary.config as { cot?: unknown } | null)?.cot === true}
      />
      <RunView
        initial={summary}
        canManage={!!owner && maySteer(viewer, owner)}
        canExport={can(viewer.role, "data.export")}
        filters={clientFilters(suiteFilters(summary.suite.id))}
      >
        {views}
      </RunView>
    </>
  );
}

// A suite run's printable report (every suite without its own): the settings it was launched with and its result
// views with 95 % intervals, as the run page shows them, under the face labels and scoring profile asked for.
import Link from "next/link";
import { db } from "@/lib/db";
import type { AnySuite } from "@/lib/suites/types";
import { resultParams } from "@/lib/suites/params";
import { cachedSuiteResults } from "@/lib/suites/results-cache";
import { PROFILE_LABELS } from "@/lib/metrics/profiles";
import { PrintButton } from "@/components/results/print-button";
import { ReportSettings, reportDate } from "@/components/runs/report-settings";
import type { ReportRun } from "@/lib/features/runs/lookups";
import { SuiteViews } from "./suite-views";
import { ProvenanceDetails } from "@/components/faces/provenance";
import { labelProvenance } from "@/lib/faces/run-provenance";
import { RunTabs } from "@/components/runs/run-tabs";
import type { Role } from "@/lib/auth/roles";

export async function SuiteReport({
  run,
  suite,
  searchParams,
  role,
}: {
  run: ReportRun;
  suite: AnySuite;
  searchParams: Record<string, string | string[] | undefined>;
  role: Role;
}) {
  const p = resultParams(searchParams);
  // What labelled the faces heads the numbers; faces from two classifiers are not scored at all.
  const provenance = await labelProvenance(db(), [run.id]);
  const views =
    suite.results && !provenance.mixed
      ? await cachedSuiteResults(db(), suite, { runId: run.id, labels: p.labels, verifiedOnly: p.items === "verified", resamples: 1000, profile: p.profile })
      : [];
  return (
    <article className="space-y-6 print:text-xs" data-testid="run-report">
      <RunTabs run={run} current="report" role={role} />
      <div className="flex items-start justify-between gap-4">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">{suite.name} report</p>
          <h1 className="text-2xl font-semibold">{run.name}</h1>
          <p className="text-sm text-slate-500">
            Generated {reportDate(new Date())} ·{" "}
            <Link href={`/runs/${run.id}`} className="print:no-underline">
              run {run.id}
            </Link>{" "}
            · {suite.paper.citation}
          </p>
        </div>
        <PrintButton />
      </div>
      <ReportSettings
        run={run}
        extra={
          <>
            <dt className="text-slate-500">Face labels</dt>
            <dd>
              {p.labels === "reviewed" ? "human-corrected (majority, model otherwise)" : "model"}
              {p.items === "verified" ? ", verified items only" : ""}
            </dd>
            {suite.profiles && (
              <>
                <dt className="text-slate-500">Scoring profile</dt>
                <dd>
                  {p.profile}: {PROFILE_LABELS[p.profile]}
                </dd>
              </>
            )}
          </>
        }
      />
      <section aria-label="Face labels" className="rounded border border-slate-200 p-3">
        <h2 className="mb-1 text-sm font-semibold">How the faces were labelled</h2>
        <ProvenanceDetails p={provenance} />
      </section>
      {/* Drill-down lists are pages of a run, not results: the report keeps the tables and charts. */}
      <SuiteViews views={views.filter((v) => v.kind !== "list")} drillBase={`/runs/${run.id}/suite`} />
    </article>
  );
}

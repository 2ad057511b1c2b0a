"use client";
// A run's page while it runs and after: progress and steering, failures, labelling, then the suite's results —
// FACT-OR-FAIR's scores and images, or another suite's own views (server-rendered children) — and the item list.
import type { RunSummary } from "@/lib/features/results/summary";
import type { ReviewFilter } from "@/lib/suites/types";
import { ItemList } from "./item-list";
import { Alert } from "@/components/ui/alert";
import { isLive } from "@/lib/core/run-status";
import { FailuresPanel } from "./failures-panel";
import { AdaptiveCard } from "./adaptive-card";
import { LabellingCard } from "./labelling-card";
import { ImageGrid } from "./image-grid";
import { RunProgress } from "./run-progress";
import { RunScores } from "./run-scores";
import { useRunSummary } from "./use-run-summary";
import { ReuseNotice } from "./reuse-notice";

/** `canManage`: whether the viewer's role may pause / resume / cancel (the server refuses otherwise anyway). */
/** `children`: a suite's own result views (server-rendered), shown instead of FACT-OR-FAIR's scores and image grid. */
/** `filters`: the suite's coordinates for the item list (Suite.reviewFilters, choices only). */
export function RunView({
  initial,
  canManage = false,
  canExport = false,
  filters = [],
  children,
}: {
  initial: RunSummary;
  canManage?: boolean;
  canExport?: boolean;
  filters?: readonly ReviewFilter[];
  children?: React.ReactNode;
}) {
  const { run, error, updatedAt, control, settings } = useRunSummary(initial);
  if (!run) return <p className="text-sm text-slate-500">Loading…</p>;
  const t2i = run.modality === "t2i";
  const imported = run.preset === "import";
  return (
    <div className="space-y-6">
      {error && <Alert compact>Live updates failed: {error.message}</Alert>}
      {!imported && <RunProgress run={run} canManage={canManage} control={control} updatedAt={updatedAt} />}

      {run.answerReuse && <ReuseNotice reuse={run.answerReuse} />}

      {run.adaptive && <AdaptiveCard adaptive={run.adaptive} plannedCount={run.adaptive.looks[0]?.planned ?? run.plannedCount} />}

      <FailuresPanel
        runId={run.id}
        failed={run.failed}
        failures={run.failures}
        usageFinding={run.usageFinding}
        lostCalls={run.lostCalls}
        canSeeItems={canExport}
      />

      {t2i && run.labelling && <LabellingCard runId={run.id} labelling={run.labelling} imported={imported} canManage={canManage} />}
      {run.scoresRefused && <Alert data-testid="scores-refused">{run.scoresRefused}</Alert>}

      {!run.suite.customRunPages ? (
        children
      ) : (
        <>
          <RunScores run={run} canExport={canExport} settings={settings} />
          {t2i && <ImageGrid runId={run.id} raceMapping={settings.raceMapping} live={isLive(run.status) || (run.labelling?.unlabelled ?? 0) > 0} />}
        </>
      )}

      {/* Every suite's items, for roles that may read raw output (the API refuses the others). */}
      {canExport && <ItemList runId={run.id} live={isLive(run.status)} filters={filters} models={run.models.map((m) => m.slug)} t2i={t2i} />}
    </div>
  );
}

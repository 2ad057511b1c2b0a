// What a run's first viewer would wait for, computed when its data settles (lib/core/settled.ts): the bootstrap
// intervals the Results and run pages fetch (FACT-OR-FAIR: 6–10 s of CPU for a quick run of two models) and a suite's
// result views with their intervals (the run page of DoFaiR / FAIntbench). Both are cached by the content they read,
// with the options the pages use by default, so the page's own request is a cache read; other options still compute
// on demand. A text-to-image run is worked when its last image is labelled, not when its last image is generated.
import type { PrismaClient } from "../../../generated/prisma/client";
import { onRunSettled } from "../../core/settled";
import { DEFAULT_SUITE_ID, suiteOf } from "../../suites";
import { resultParams } from "../../suites/params";
import { cachedSuiteResults } from "../../suites/results-cache";
import { intervalsQuery, runIntervals } from "./intervals";

export async function computeAhead(prisma: PrismaClient, runId: string): Promise<void> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { suiteId: true, modality: true, status: true } });
  if (!run || run.status !== "completed") return;
  if (run.modality === "t2i" && (await prisma.image.count({ where: { runId, labelStatus: { in: ["unlabelled", "leased"] } } })) > 0) return;
  const suite = suiteOf(run.suiteId);
  if (suite.id === DEFAULT_SUITE_ID) await runIntervals(prisma, runId, intervalsQuery.parse({}));
  if (suite.results && !suite.customRunPages) {
    // The run page's request with no options (app/runs/[id]/page.tsx): the same key, so its render reads the cache.
    const p = resultParams({});
    await cachedSuiteResults(prisma, suite, {
      runId,
      labels: p.labels,
      verifiedOnly: p.items === "verified",
      resamples: 1000,
      profile: p.profile,
      target: p.target,
    });
  }
}

/** Registered by the processes that finish runs or label images: the server (instrumentation) and `fof` commands. */
export function registerAhead(): void {
  onRunSettled(computeAhead);
}

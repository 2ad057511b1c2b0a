// FAIntbench's comparisons of two (run, model) sides (Suite.compare; lib/features/results/suite-comparisons.ts): each
// side's prompt tallies from its run's labelled images (one pass per run), scored against the content its run was
// planned with, and compared by ./compare.ts.
import type { SuiteCompareRequest, SuiteComparison, SuiteContext } from "../types";
import { parsePinned } from "./content";
import { FAINT_METRIC_NAMES, faintDifferences, type FaintMetric } from "./compare";
import { collect } from "./results";
import { DEFAULT_PROFILE } from "../../metrics/profiles";

export async function faintCompare(ctx: SuiteContext, req: SuiteCompareRequest): Promise<SuiteComparison> {
  const ids = [...new Set([req.a.runId, req.b.runId])];
  const loaded = new Map(
    await Promise.all(
      ids.map(async (runId) => {
        const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { benchmarkVersion: { select: { contentJson: true } } } });
        const content = parsePinned(run.benchmarkVersion.contentJson);
        const { byModel } = await collect(ctx, runId, content, req.labels);
        return [runId, { content, byModel }] as const;
      }),
    ),
  );
  const side = (s: { runId: string; model: string }) => {
    const r = loaded.get(s.runId)!;
    return { content: r.content, tallies: r.byModel.get(s.model) ?? new Map() };
  };
  const rows = faintDifferences(side(req.a), side(req.b), {
    resamples: req.resamples,
    level: req.level,
    seed: req.seed,
    paired: req.paired,
    profile: req.profile ?? DEFAULT_PROFILE,
    metrics: req.metrics?.filter((m): m is FaintMetric => m in FAINT_METRIC_NAMES),
  });
  return {
    items: "prompts (η: prompt pairs)",
    target: "population",
    rows: rows.map((d) => ({
      metric: d.metric,
      metricName: FAINT_METRIC_NAMES[d.metric],
      group: d.group,
      better: d.metric === "eta" ? "half" : "higher",
      diff: d,
    })),
  };
}

// Rank intervals of content-set runs (Suite.rankReplicates): per declared attribute, (test, context) group and score,
// every (run, model) ranked in each replicate of FACT-OR-FAIR's joint design bootstrap (lib/metrics/ranks.ts) —
// scenarios drawn within each statistic and level, the same draws for runs of one content version — as the paper's
// leaderboard ranks. Runs whose attribute has other classes (another content) rank in a group of their own.
import { designCells } from "../../metrics";
import { plugInScores } from "../../metrics/cluster-bootstrap";
import { BOOTSTRAP_METRICS } from "../../metrics/design";
import { jointReplicatesAsync, type Arm } from "../../metrics/ranks";
import { METRIC_INFO } from "../../results/metric-info";
import type { RankReplicateGroup, SuiteContext } from "../types";
import { parsePinned } from "./content";
import { declaredAttribute, groupsOf, ownRecords } from "./records";
import { groupLabel } from "./results";

export async function ownRankReplicates(ctx: SuiteContext, req: { runIds: readonly string[]; resamples: number; seed: number }): Promise<RankReplicateGroup[]> {
  const groups = new Map<string, { label: string; k: number; arms: Array<Arm & { runId: string; model: string }> }>();
  for (const runId of req.runIds) {
    const run = await ctx.prisma.run.findUniqueOrThrow({
      where: { id: runId },
      select: { benchmarkVersionId: true, benchmarkVersion: { select: { contentJson: true } } },
    });
    const content = parsePinned(run.benchmarkVersion.contentJson);
    for (const g of groupsOf(await ownRecords(ctx, runId, content), content)) {
      const attribute = declaredAttribute(content, g.attribute);
      const id = JSON.stringify([g.attribute, attribute.classes, g.test, g.context]);
      let group = groups.get(id);
      if (!group) groups.set(id, (group = { label: `${g.attribute} · ${groupLabel(g)}`, k: attribute.classes.length, arms: [] }));
      group.arms.push({ key: `${runId}|${g.model}`, runId, model: g.model, cells: designCells(g.records, attribute), content: run.benchmarkVersionId });
    }
  }
  const out: RankReplicateGroup[] = [];
  for (const [id, g] of groups) {
    if (g.arms.length < 2) continue;
    const replicates = await jointReplicatesAsync(g.arms, g.k, { resamples: req.resamples, seed: req.seed, key: id, target: "population", method: "global" });
    for (const m of BOOTSTRAP_METRICS)
      out.push({
        metric: m,
        metricName: METRIC_INFO[m].label,
        group: g.label,
        better: METRIC_INFO[m].better,
        arms: g.arms.map((a) => ({
          key: a.key,
          runId: a.runId,
          model: a.model,
          point: plugInScores(a.cells, g.k, "global")[m],
          replicates: replicates.get(a.key)![m],
        })),
      });
  }
  return out;
}

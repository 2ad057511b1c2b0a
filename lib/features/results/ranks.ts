// Rank intervals for the leaderboard: every (run, model) of FACT-OR-FAIR runs ranked per paper column and attribute
// in each joint bootstrap resample (lib/metrics/ranks.ts). Computed once per state of the runs' data, metric and
// target, queued with the other interval computations, and cached (ScoreCache, kind "ranks").
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import { classCount, type Attribute } from "../../benchmark";
import { designCells, intervalMethodOf } from "../../metrics";
import { jointReplicatesAsync, rankIntervals, type Arm } from "../../metrics/ranks";
import { DEFAULT_INTERVAL_TARGET, type BootstrapMetric, type IntervalTarget } from "../../metrics/design";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import { plugInScores } from "../../metrics/cluster-bootstrap";
import { columnOf } from "../../results/tradeoff";
import { BETTER } from "../../results/leaderboard";
import { assertFactOrFairRun, designRecords } from "./explore";
import { enqueue } from "./intervals";
import { keepInCache } from "../../db/score-cache";

interface RankRow {
  modality: "llm" | "t2i";
  runId: string;
  model: string;
  column: string;
  attribute: Attribute;
  rank: number;
  lo: number;
  hi: number;
  /** "<run id>|<model>" of the rows it cannot be told apart from */
  tiedWith: string[];
}

export interface RanksResult {
  metric: BootstrapMetric;
  target: IntervalTarget;
  resamples: number;
  cached: boolean;
  rows: RankRow[];
}

const RESAMPLES = 1000;

export async function runsRankIntervals(
  prisma: PrismaClient,
  runIds: readonly string[],
  metric: BootstrapMetric,
  target: IntervalTarget = DEFAULT_INTERVAL_TARGET,
): Promise<RanksResult> {
  const runs = await prisma.run.findMany({ where: { id: { in: [...runIds] } }, select: { id: true, seed: true, benchmarkVersionId: true } });
  for (const r of runs) await assertFactOrFairRun(prisma, r.id);
  const records = await Promise.all(runs.map(async (r) => ({ run: r, records: await designRecords(prisma, r.id) })));
  const canonical = records.map(({ run, records: rs }) => [run.id, rs.map((r) => Object.values(r).join("|")).sort()]);
  const key = createHash("sha256")
    // v2: records in canonical order (the same draws on SQLite and PostgreSQL)
    .update(JSON.stringify({ v: 2, kind: "ranks", metric, target, resamples: RESAMPLES, canonical }))
    .digest("hex");
  const hit = await prisma.scoreCache.findUnique({ where: { key } });
  if (hit) return { ...(JSON.parse(hit.json) as RanksResult), cached: true };
  if (!runs.length) return { metric, target, resamples: RESAMPLES, cached: false, rows: [] };

  return enqueue(async () => {
    // One ranking per (paper column, attribute): the arms are every run's model that has that group.
    const groups = new Map<
      string,
      { modality: "llm" | "t2i"; column: string; attribute: Attribute; arms: Arm[]; k: number; method: ReturnType<typeof intervalMethodOf> }
    >();
    for (const { run, records: rs } of records) {
      const byArm = new Map<string, typeof rs>();
      for (const r of rs) {
        const g = JSON.stringify([r.modality, columnOf(r.modality, r.test, r.context), r.attribute, r.model]);
        let list = byArm.get(g);
        if (!list) byArm.set(g, (list = []));
        list.push(r);
      }
      for (const [g, list] of byArm) {
        const [modality, column, attribute, model] = JSON.parse(g) as ["llm" | "t2i", string, Attribute, string];
        const gk = JSON.stringify([modality, column, attribute]);
        let group = groups.get(gk);
        if (!group)
          groups.set(
            gk,
            (group = {
              modality,
              column,
              attribute,
              arms: [],
              k: classCount(attribute),
              method: intervalMethodOf(DEFAULT_PROFILE, modality),
            }),
          );
        group.arms.push({ key: `${run.id}|${model}`, cells: designCells(list, attribute), content: run.benchmarkVersionId });
      }
    }
    const rows: RankRow[] = [];
    for (const [gk, g] of [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (g.arms.length < 2) continue;
      const replicates = await jointReplicatesAsync(g.arms, g.k, { resamples: RESAMPLES, seed: runs[0].seed, key: gk, target, method: g.method });
      const ranked = rankIntervals(
        g.arms.map((a) => ({ key: a.key, point: plugInScores(a.cells, g.k, g.method)[metric], replicates: replicates.get(a.key)![metric] })),
        BETTER[metric],
      );
      for (const [armKey, r] of ranked) {
        const [runId, ...model] = armKey.split("|");
        rows.push({ modality: g.modality, runId, model: model.join("|"), column: g.column, attribute: g.attribute, ...r });
      }
    }
    const result: RanksResult = { metric, target, resamples: RESAMPLES, cached: false, rows };
    await keepInCache(prisma, { key, runId: runs[0].id, kind: "ranks", json: JSON.stringify(result) });
    return result;
  });
}

// Rank intervals for suites other than FACT-OR-FAIR (its own: ranks.ts): per headline score and group, every (run,
// model) of the runs shown ranked in each joint resample of the units the suite's intervals resample — prompts and
// η pairs (Suite.rankArms), or the entries of a suite whose scores are averages over images (Suite.comparable) —
// the same units for runs of one content (lib/metrics/ranks-units.ts). About the population of those units, the
// suites' default target. Computed once per state of the runs' data, queued with the other interval computations,
// and cached (ScoreCache, kind "ranks").
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import { badRequest } from "../../core/errors";
import { rankIntervals } from "../../metrics/ranks";
import { unitRankReplicates } from "../../metrics/ranks-units";
import type { ScoringProfile } from "../../metrics/profiles";
import type { Psu } from "../../metrics/mean-bootstrap";
import type { AnySuite } from "../../suites";
import type { RankGroup, SuiteContext } from "../../suites/types";
import { suiteStateKey } from "../../suites/results-cache";
import { enqueue } from "./intervals";
import { keepInCache } from "../../db/score-cache";

interface SuiteRankRow {
  metric: string;
  metricName: string;
  group: string;
  runId: string;
  model: string;
  rank: number;
  lo: number;
  hi: number;
  /** "<run id>|<model>" of the rows it cannot be told apart from */
  tiedWith: string[];
}

export interface SuiteRanksResult {
  suite: string;
  target: "population";
  resamples: number;
  cached: boolean;
  rows: SuiteRankRow[];
}

const RESAMPLES = 1000;

/** Averages over images (Suite.comparable): one ranking per (group, metric), units the entries. */
async function comparableGroups(ctx: SuiteContext, suite: AnySuite, runIds: readonly string[], labels: "model" | "reviewed", profile?: ScoringProfile) {
  const groups = new Map<string, RankGroup>();
  for (const runId of runIds) {
    const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { benchmarkVersionId: true } });
    const scores = await suite.comparable!(ctx, { runId, labels, profile });
    for (const g of scores.groups)
      scores.metrics.forEach((m) => {
        const id = `${g.key}|${m.id}`;
        let group = groups.get(id);
        if (!group) {
          const zero = m.better === "zero";
          groups.set(
            id,
            (group = {
              metric: m.id,
              metricName: zero ? `|${m.label}|` : m.label,
              group: g.label,
              better: m.better === "higher" ? "higher" : "lower",
              arms: [],
            }),
          );
        }
        const units = new Map<string, Psu>();
        for (const u of g.units) {
          const psu = units.get(u.cluster) ?? { sum: [0], n: 0 };
          psu.sum[0] += u.values[m.id];
          psu.n++;
          units.set(u.cluster, psu);
        }
        const zero = m.better === "zero";
        group.arms.push({
          runId,
          model: g.model,
          key: `${runId}|${g.model}`,
          content: run.benchmarkVersionId,
          units,
          stat: (s) => {
            let sum = 0;
            let n = 0;
            for (const p of s as Psu[]) {
              sum += p.sum[0];
              n += p.n;
            }
            if (!n) return null;
            return zero ? Math.abs(sum / n) : sum / n;
          },
        });
      });
  }
  return [...groups.values()];
}

export async function suiteRankIntervals(
  prisma: PrismaClient,
  suite: AnySuite,
  runIds: readonly string[],
  opts: { labels?: "model" | "reviewed"; profile?: ScoringProfile } = {},
): Promise<SuiteRanksResult> {
  if (!suite.rankArms && !suite.comparable && !suite.rankReplicates) throw badRequest(`${suite.name} runs offer no rank intervals`);
  const labels = opts.labels ?? "model";
  const states = await Promise.all(
    runIds.map((runId) => suiteStateKey(prisma, suite, { runId, labels, verifiedOnly: false, resamples: 0, profile: opts.profile })),
  );
  const key = createHash("sha256")
    .update(JSON.stringify({ v: 1, kind: "suite-ranks", suite: suite.id, resamples: RESAMPLES, states: [...states].sort() }))
    .digest("hex");
  const hit = await prisma.scoreCache.findUnique({ where: { key } });
  if (hit) return { ...(JSON.parse(hit.json) as SuiteRanksResult), cached: true };
  return enqueue(async () => {
    const ctx = { prisma };
    const seed = (await prisma.run.findFirst({ where: { id: { in: [...runIds] } }, orderBy: { id: "asc" }, select: { seed: true } }))?.seed ?? 1;
    const rows: SuiteRankRow[] = [];
    if (suite.rankReplicates) {
      // The suite's own joint design bootstrap (e.g. a content set's: scenarios within each statistic and level).
      for (const g of await suite.rankReplicates(ctx, { runIds, resamples: RESAMPLES, seed })) {
        if (g.arms.length < 2) continue;
        const byKey = new Map(g.arms.map((a) => [a.key, a]));
        for (const [armKey, r] of rankIntervals(g.arms, g.better)) {
          const arm = byKey.get(armKey)!;
          rows.push({ metric: g.metric, metricName: g.metricName, group: g.group, runId: arm.runId, model: arm.model, ...r });
        }
      }
      const result: SuiteRanksResult = { suite: suite.id, target: "population", resamples: RESAMPLES, cached: false, rows };
      await keepInCache(prisma, { key, runId: [...runIds].sort()[0], kind: "ranks", json: JSON.stringify(result) });
      return result;
    }
    const groups = suite.rankArms
      ? await suite.rankArms(ctx, { runIds, labels, profile: opts.profile })
      : await comparableGroups(ctx, suite, runIds, labels, opts.profile);
    for (const g of groups) {
      const arms = g.arms.filter((a) => a.units.size > 0);
      if (arms.length < 2) continue;
      const byKey = new Map(arms.map((a) => [a.key, a]));
      const ranked = rankIntervals(unitRankReplicates(arms, RESAMPLES, seed, `${g.metric}|${g.group}`), g.better);
      for (const [armKey, r] of ranked) {
        const arm = byKey.get(armKey)!;
        rows.push({ metric: g.metric, metricName: g.metricName, group: g.group, runId: arm.runId, model: arm.model, ...r });
      }
    }
    const result: SuiteRanksResult = { suite: suite.id, target: "population", resamples: RESAMPLES, cached: false, rows };
    await keepInCache(prisma, { key, runId: [...runIds].sort()[0], kind: "ranks", json: JSON.stringify(result) });
    return result;
  });
}

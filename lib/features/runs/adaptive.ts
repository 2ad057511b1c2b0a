// Adaptive runs in the engine (docs/scoring.md "Adaptive runs"; the statistics are lib/metrics/sequential.ts):
// - planning writes every row of the full plan (the cap) unreleased, then cuts it into waves (assignWaves): within
//   each stratum the suite names (FACT-OR-FAIR: model × test × context × statistic × level × attribute × scenario,
//   growing by repeats; a suite of historical entries: model × method × augmentation × dimension, growing by
//   entries) the clusters are put in a seeded order and the first ⌈f_j·n⌉ go to the waves up to j, so every prefix
//   holds every stratum — a random, stratified, growing sample of the design;
// - workers claim only released waves (claim.ts); when a released wave has no open row, a worker takes a look:
//   the suite's evaluator computes every targeted interval at the look's level, and the run either stops (target
//   met, or the cap's last look) — its unreleased rows removed, never called — or releases the next wave. The look
//   is one conditional update on the run's released wave, so of several workers exactly one acts on it.
import type { PrismaClient } from "../../../generated/prisma/client";
import { createHash } from "node:crypto";
import { halfwidthVerdict, lookLevels, waveOfRank, type AdaptiveTarget, type LookSchedule } from "../../metrics/sequential";
import type { WaveUnitOf } from "../../suites/types";
import { findSuite } from "../../suites";
import { quantileOf, type IntervalQuantile, type IntervalTarget } from "../../metrics/design";
import { forgetShared } from "../../core/shared";
import { adaptiveStateOf, type AdaptiveState, type LookRecord, type LookRow } from "../../results/adaptive";

/** Rows written by planning before the waves are cut: never due (no run releases this many waves). */
export const UNRELEASED_WAVE = 1_000_000;

/** A suite's look: every targeted interval of the run at `level` (halfwidth targets), or its comparisons (decided). */
export type LookEvaluator = (
  prisma: PrismaClient,
  req: { runId: string; seed: number; level: number; intervalTarget: IntervalTarget; quantile: IntervalQuantile; target: AdaptiveTarget },
) => Promise<LookRow[]>;

// Registered by the layer that knows how a suite scores (lib/features/results registers FACT-OR-FAIR's); shared by
// every bundle of a process.
const g = globalThis as unknown as { __fofLookEvaluators?: Map<string, LookEvaluator> };
const evaluators = (g.__fofLookEvaluators ??= new Map());
export function registerLookEvaluator(suiteId: string, fn: LookEvaluator): void {
  evaluators.set(suiteId, fn);
}
export function lookEvaluatorFor(suiteId: string): LookEvaluator | undefined {
  const registered = evaluators.get(suiteId);
  if (registered) return registered;
  // A suite that scores its own looks (Suite.look) needs no registration.
  const suite = findSuite(suiteId);
  const own = suite?.look?.bind(suite);
  return own ? (prisma, req) => own({ prisma }, req) : undefined;
}

/**
 * A seeded order of a wave's clusters: the same cluster ranks the same in every stratum (so models stay paired). The
 * first four bytes of the digest, big-endian, read without Buffer (the browser verifier cuts waves again with it).
 */
const clusterRank = (seed: number, cluster: string) => {
  const d = createHash("sha256").update(`${seed}\u0001${cluster}`).digest();
  return ((d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!) >>> 0;
};

/**
 * The default cut, in two statements whatever the run's size (a paper-size text-to-image run may plan 2,123,200
 * rows per model): within every stratum — model × test × context × statistic × level × attribute ×
 * scenario — the repeats, independent draws of the same item, are put in a seeded order (an affine permutation of
 * the repeat index: repeats are exchangeable, so any fixed order is a random sample; the seed varies which) and the
 * first ⌈f_j·n⌉ go to the waves up to j. Helper rows then take the earliest wave of the rows that wait for them.
 */
async function assignRepeatWaves(
  tx: Pick<PrismaClient, "$executeRawUnsafe">,
  runId: string,
  schedule: LookSchedule,
  seed: number,
  dialect: "sqlite" | "postgresql",
) {
  const s = Math.abs(Math.floor(seed)) % 1_000_003;
  const permille = schedule.fractions.map((f) => Math.max(1, Math.min(1000, Math.round(f * 1000))));
  const cases = permille
    .slice(0, -1)
    .map((f, j) => `WHEN rn <= (n * ${f} + 999) / 1000 THEN ${j + 1}`)
    .join(" ");
  const p1 = dialect === "sqlite" ? "?" : "$1";
  const strata = `q."modelConfigId", q."test", q."context", q."statisticId", q."level", q."attribute", q."scenarioIndex"`;
  const cut = await tx.$executeRawUnsafe(
    `UPDATE "Query" SET "wave" = w."wave" FROM (
      SELECT id, CASE ${cases} ELSE ${permille.length} END AS "wave" FROM (
        SELECT q."id" AS id,
          ROW_NUMBER() OVER (PARTITION BY ${strata} ORDER BY ((q."repeatIndex" + 1) * 7919 + ${s}) % 1000003, q."id") AS rn,
          COUNT(*) OVER (PARTITION BY ${strata}) AS n
        FROM "Query" q WHERE q."runId" = ${p1}
      ) ranked
    ) w WHERE "Query"."id" = w.id`,
    runId,
  );
  await tx.$executeRawUnsafe(
    `UPDATE "Query" SET "wave" = (SELECT MIN(d."wave") FROM "Query" d WHERE d."dependsOnId" = "Query"."id")
     WHERE "runId" = ${p1} AND EXISTS (SELECT 1 FROM "Query" d WHERE d."dependsOnId" = "Query"."id")`,
    runId,
  );
  return cut;
}

/**
 * Cuts a planned adaptive run into waves: the default cut (assignRepeatWaves), or for a suite with its own unit
 * (Suite.waveUnit, e.g. a suite's entries) within each stratum it names its clusters are put in a seeded random
 * order and the first ⌈f_j·n⌉ go to the waves up to j (waveOfRank), every row of a cluster with it;
 * so every prefix holds every stratum, and each a random sample of its clusters. A helper row (a chat model writing
 * guidance) goes with the earliest row that waits for it. The rows are read once (a run may plan at most
 * FOF_MAX_QUERIES_PER_RUN) and written wave by wave in chunks.
 */
export async function assignWaves(
  tx: Pick<PrismaClient, "query" | "$executeRawUnsafe">,
  runId: string,
  schedule: LookSchedule,
  seed: number,
  dialect: "sqlite" | "postgresql",
  unitOf?: WaveUnitOf,
) {
  if (!unitOf) return assignRepeatWaves(tx, runId, schedule, seed, dialect);
  const rows = await tx.query.findMany({
    where: { runId },
    select: {
      id: true,
      dependsOnId: true,
      modelConfigId: true,
      test: true,
      context: true,
      statisticId: true,
      level: true,
      attribute: true,
      scenarioIndex: true,
      repeatIndex: true,
    },
  });
  const strata = new Map<string, Map<string, number[]>>();
  const dependsOn = new Map<number, number>();
  for (const r of rows) {
    if (r.dependsOnId !== null) dependsOn.set(r.id, r.dependsOnId);
    const { stratum, cluster } = unitOf(r);
    let clusters = strata.get(stratum);
    if (!clusters) strata.set(stratum, (clusters = new Map()));
    let ids = clusters.get(cluster);
    if (!ids) clusters.set(cluster, (ids = []));
    ids.push(r.id);
  }
  const waveOf = new Map<number, number>();
  const ranks = new Map<string, number>();
  const rank = (c: string) => ranks.get(c) ?? (ranks.set(c, clusterRank(seed, c)), ranks.get(c)!);
  for (const clusters of strata.values()) {
    const ordered = [...clusters.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    ordered.forEach((c, i) => {
      const w = waveOfRank(i, ordered.length, schedule);
      for (const id of clusters.get(c)!) waveOf.set(id, w);
    });
  }
  // Helpers: the earliest wave of the rows that wait for them (a helper nobody waits for: the first).
  const helpers = new Set(dependsOn.values());
  for (const h of helpers) waveOf.set(h, Number.POSITIVE_INFINITY);
  for (const [id, h] of dependsOn) waveOf.set(h, Math.min(waveOf.get(h)!, waveOf.get(id)!));
  const byWave = new Map<number, number[]>();
  for (const [id, w] of waveOf) {
    const wave = Number.isFinite(w) ? w : 1;
    let ids = byWave.get(wave);
    if (!ids) byWave.set(wave, (ids = []));
    ids.push(id);
  }
  for (const [wave, ids] of byWave)
    for (let i = 0; i < ids.length; i += WAVE_CHUNK) await tx.query.updateMany({ where: { id: { in: ids.slice(i, i + WAVE_CHUNK) } }, data: { wave } });
  return rows.length;
}
/** ids per UPDATE … WHERE id IN (…): within the smallest limit on bound parameters (SQLite builds of 999) */
const WAVE_CHUNK = 900;

const LOOK_SELECT = {
  id: true,
  status: true,
  seed: true,
  suiteId: true,
  modality: true,
  adaptiveJson: true,
  wavesReleased: true,
  spentUsd: true,
  budgetUsd: true,
} as const;

/** Whether a look's intervals meet the target, and the widest interval or the first undecided comparison. */
export function lookVerdict(target: AdaptiveTarget, rows: LookRow[]): Pick<LookRecord, "met" | "widest" | "undecided"> {
  if (target.kind === "halfwidth") {
    const v = halfwidthVerdict(rows, target);
    return { met: v.met && rows.length > 0, widest: v.widest, undecided: null };
  }
  const open = rows.find((r) => r.decision === "open");
  return { met: rows.length > 0 && !open, widest: null, undecided: open ? { model: open.model, group: open.group, metric: open.metric } : null };
}

/**
 * Takes the look due on a run whose released waves are all answered: evaluates, then stops the run or releases the
 * next wave. Returns what it did; "none" when there was nothing to do (not adaptive, not running, stopped, or
 * another worker acted first).
 */
export async function takeLook(prisma: PrismaClient, runId: string): Promise<"stopped" | "released" | "none" | "no-evaluator"> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: LOOK_SELECT });
  const state = adaptiveStateOf(run?.adaptiveJson);
  if (!run || !state || state.outcome || run.status !== "running" || run.wavesReleased < 1) return "none";
  const evaluate = lookEvaluatorFor(run.suiteId);
  if (!evaluate) return "no-evaluator";
  const look = run.wavesReleased;
  const looks = state.schedule.fractions.length;
  const level = lookLevels(state.schedule, state.alpha)[look - 1];
  // the quantile the rule was launched with: a run launched before Student's t keeps the normal one to its end
  const quantile = quantileOf(state.quantile);
  const rows = await evaluate(prisma, { runId, seed: run.seed, level, intervalTarget: state.intervalTarget, quantile, target: state.target });
  const [items, planned] = await Promise.all([prisma.query.count({ where: { runId, wave: { lte: look } } }), prisma.query.count({ where: { runId } })]);
  const record: LookRecord = { look, level, items, planned, spentUsd: run.spentUsd, at: new Date().toISOString(), ...lookVerdict(state.target, rows), rows };
  const met = record.met;
  const stop = met || look >= looks;
  const next: AdaptiveState = {
    ...state,
    looks: [...state.looks, record],
    outcome: stop ? { kind: met ? "met" : "cap", look, items, planned, spentUsd: run.spentUsd, budgetUsd: run.budgetUsd, at: record.at } : null,
  };
  const acted = await prisma.$transaction(async (tx) => {
    const updated = await tx.run.updateMany({
      where: { id: runId, status: "running", wavesReleased: look },
      data: stop ? { adaptiveJson: JSON.stringify(next), plannedCount: items } : { adaptiveJson: JSON.stringify(next), wavesReleased: look + 1 },
    });
    if (!updated.count) return false;
    // Never called, never paid: the rest of the plan goes, so the run's rows are exactly what it used.
    if (stop) await tx.query.deleteMany({ where: { runId, wave: { gt: look } } });
    return true;
  });
  if (!acted) return "none";
  forgetShared(runId);
  return stop ? "stopped" : "released";
}

/** Images of a text-to-image run's released waves still waiting for their labels (a look scores labelled images). */
export function labelsPending(prisma: PrismaClient, runId: string, wavesReleased: number): Promise<number> {
  return prisma.image.count({ where: { runId, labelStatus: { in: ["unlabelled", "leased"] }, query: { wave: { lte: wavesReleased } } } });
}

/**
 * Adaptive runs among these whose released waves have no open row — and, for text-to-image runs, no image waiting
 * for its labels (the run waits for its label workers rather than generating more): a look is due on each.
 */
export async function looksDue(prisma: PrismaClient, runIds: readonly string[]): Promise<string[]> {
  if (!runIds.length) return [];
  const runs = await prisma.run.findMany({
    where: { id: { in: [...runIds] }, adaptiveJson: { not: null }, status: "running", wavesReleased: { gt: 0 } },
    select: LOOK_SELECT,
  });
  const due: string[] = [];
  for (const r of runs) {
    if (adaptiveStateOf(r.adaptiveJson)?.outcome) continue;
    const open = await prisma.query.count({ where: { runId: r.id, wave: { lte: r.wavesReleased }, status: { in: ["pending", "leased"] } } });
    if (open !== 0) continue;
    if (r.modality === "t2i" && (await labelsPending(prisma, r.id, r.wavesReleased)) > 0) continue;
    due.push(r.id);
  }
  return due;
}

// Adaptive runs in the engine (docs/scoring.md "Adaptive runs"; the statistics are lib/metrics/sequential.ts):
// - planning writes every row of the full plan (the cap) unreleased, then cuts it into waves in one statement: within
//   each stratum (model × test × context × statistic × level × attribute × scenario) the repeats are put in a seeded
//   order and the first ⌈f_j·n⌉ go to the waves up to j, so every prefix holds every stratum — a random, stratified,
//   growing sample of the design;
// - workers claim only released waves (claim.ts); when a released wave has no open row, a worker takes a look:
//   the suite's evaluator computes every targeted interval at the look's level, and the run either stops (target
//   met, or the cap's last look) — its unreleased rows removed, never called — or releases the next wave. The look
//   is one conditional update on the run's released wave, so of several workers exactly one acts on it.
import type { PrismaClient } from "../../../generated/prisma/client";
import { halfwidthVerdict, lookLevels, type AdaptiveTarget, type LookSchedule } from "../../metrics/sequential";
import type { IntervalTarget } from "../../metrics/design";
import { forgetShared } from "../../core/shared";
import { adaptiveStateOf, type AdaptiveState, type LookRecord, type LookRow } from "../../results/adaptive";

/** Rows written by planning before the waves are cut: never due (no run releases this many waves). */
export const UNRELEASED_WAVE = 1_000_000;

/** A suite's look: every targeted interval of the run at `level` (halfwidth targets), or its comparisons (decided). */
export type LookEvaluator = (
  prisma: PrismaClient,
  req: { runId: string; seed: number; level: number; intervalTarget: IntervalTarget; target: AdaptiveTarget },
) => Promise<LookRow[]>;

// Registered by the layer that knows how a suite scores (lib/features/results registers FACT-OR-FAIR's); shared by
// every bundle of a process.
const g = globalThis as unknown as { __fofLookEvaluators?: Map<string, LookEvaluator> };
const evaluators = (g.__fofLookEvaluators ??= new Map());
export function registerLookEvaluator(suiteId: string, fn: LookEvaluator): void {
  evaluators.set(suiteId, fn);
}
function lookEvaluatorFor(suiteId: string): LookEvaluator | undefined {
  return evaluators.get(suiteId);
}

/**
 * Cuts a planned adaptive run into waves (one statement). The seeded order within a stratum is an affine permutation
 * of the repeat index — repeats are independent draws already (each has its own drawn options and identities), so
 * any fixed order is a random sample; the seed only varies which.
 */
export async function assignWaves(
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
  const sql = `UPDATE "Query" SET "wave" = w."wave" FROM (
      SELECT id, CASE ${cases} ELSE ${permille.length} END AS "wave" FROM (
        SELECT q."id" AS id,
          ROW_NUMBER() OVER (PARTITION BY q."modelConfigId", q."test", q."context", q."statisticId", q."level", q."attribute", q."scenarioIndex"
            ORDER BY ((q."repeatIndex" + 1) * 7919 + ${s}) % 1000003, q."id") AS rn,
          COUNT(*) OVER (PARTITION BY q."modelConfigId", q."test", q."context", q."statisticId", q."level", q."attribute", q."scenarioIndex") AS n
        FROM "Query" q WHERE q."runId" = ${dialect === "sqlite" ? "?" : "$1"}
      ) ranked
    ) w WHERE "Query"."id" = w.id`;
  return tx.$executeRawUnsafe(sql, runId);
}

const LOOK_SELECT = { id: true, status: true, seed: true, suiteId: true, adaptiveJson: true, wavesReleased: true, spentUsd: true, budgetUsd: true } as const;

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
  const rows = await evaluate(prisma, { runId, seed: run.seed, level, intervalTarget: state.intervalTarget, target: state.target });
  const [items, planned] = await Promise.all([prisma.query.count({ where: { runId, wave: { lte: look } } }), prisma.query.count({ where: { runId } })]);
  let met: boolean;
  let widest: LookRecord["widest"] = null;
  let undecided: LookRecord["undecided"] = null;
  if (state.target.kind === "halfwidth") {
    const v = halfwidthVerdict(rows, state.target);
    met = v.met && rows.length > 0;
    widest = v.widest;
  } else {
    const open = rows.find((r) => r.decision === "open");
    met = rows.length > 0 && !open;
    undecided = open ? { model: open.model, group: open.group, metric: open.metric } : null;
  }
  const record: LookRecord = { look, level, items, planned, spentUsd: run.spentUsd, at: new Date().toISOString(), met, widest, undecided, rows };
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

/** Adaptive runs among these whose released waves have no open row: a look is due on each. */
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
    if (open === 0) due.push(r.id);
  }
  return due;
}

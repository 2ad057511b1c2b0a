// Claiming work: a worker leases up to n due queries of one run × model under its claim token, for leaseMs. A lease
// carries the worker's unique id and expires by time only; an expired lease is claimable again. One statement
// claims and returns the rows (UPDATE … RETURNING), one more reads their cached answers: a claim costs two.
//   SQLite: the single UPDATE is atomic (SQLite has one writer at a time), so two workers never take the same row.
//   PostgreSQL: the rows are picked FOR UPDATE SKIP LOCKED — workers on many hosts claim in parallel without waiting
//   on each other's rows, and each row goes to exactly one of them.
import type { PrismaClient } from "../../../generated/prisma/client";
import { DIALECTS, dialectOf } from "../../db/dialect";
import type { Claimed } from "./work-types";
import { cachedAnswers, type AnswerReuse } from "./answer-cache";

export interface ClaimRequest {
  runId: string;
  modelConfigId: string;
  n: number;
  /** the worker's id plus a sequence number: which rows this claim took */
  token: string;
  leaseMs: number;
  /**
   * For a run with a budget and a model that costs money: each claimed query reserves its worst-case cost, and no
   * more are claimed than the budget covers after what is spent and what live leases (any worker's) reserve.
   */
  reserve?: { perQueryUsd: number } | null;
  /** adaptive runs: only rows of waves up to this one are due (lib/features/runs/adaptive.ts); others have wave 0 */
  maxWave?: number;
  /** answers of other runs the run's launch allowed (./answer-cache.ts); absent: its own only */
  reuse?: AnswerReuse | null;
}

const COLUMNS = [
  "id",
  "runId",
  "modelConfigId",
  "modality",
  "test",
  "context",
  "statisticId",
  "level",
  "attribute",
  "scenarioIndex",
  "repeatIndex",
  "prompt",
  "optionsJson",
  "identityJson",
  "groundTruthJson",
  "attempts",
  "cacheKey",
  "dependsOnId",
] as const;
const RETURNING = COLUMNS.map((c) => `"${c}"`).join(", ");

// Due: pending with no backoff pending, no helper answer awaited, and in a released wave; or leased under an
// expired lease. $WAVE is an integer the claim inlines (a run's released waves; 0 for runs of fixed size).
const DUE = `q."status" = 'pending' AND (q."nextAttemptAt" IS NULL OR q."nextAttemptAt" <= $NOW)
  AND (q."dependsOnId" IS NULL OR EXISTS (SELECT 1 FROM "Outcome" o WHERE o."queryId" = q."dependsOnId")) AND q."wave" <= $WAVE`;
const EXPIRED = `q."status" = 'leased' AND q."leaseUntil" < $NOW`;
// Only a run that still calls gives out rows, checked in the claim itself: a worker whose list of runs is a moment old
// takes nothing from a run paused, cancelled or swept meanwhile (./call-marks.ts checks again before a paid call).
const CALLING_RUN = `EXISTS (SELECT 1 FROM "Run" r0 WHERE r0."id" = q."runId" AND r0."status" IN ('running', 'planning'))`;

// How many queries the run's budget still covers at a worst-case cost each: budget − spent − live reservations.
// NULL budget = no bound (the outer LIMIT is then n alone). Rows leased under an expired lease reserve nothing.
const AFFORDABLE = {
  sqlite: `(SELECT CASE WHEN r."budgetUsd" IS NULL THEN ? ELSE CAST(MAX(0, (r."budgetUsd" - r."spentUsd" - COALESCE((SELECT SUM(q2."reservedUsd") FROM "Query" q2 WHERE q2."runId" = r."id" AND q2."status" = 'leased' AND q2."leaseUntil" >= ?), 0)) / ? + 1e-9) AS INTEGER) END FROM "Run" r WHERE r."id" = ?)`,
  postgresql: `(SELECT CASE WHEN r."budgetUsd" IS NULL THEN $6 ELSE FLOOR(GREATEST(0, (r."budgetUsd" - r."spentUsd" - COALESCE((SELECT SUM(q2."reservedUsd") FROM "Query" q2 WHERE q2."runId" = r."id" AND q2."status" = 'leased' AND q2."leaseUntil" >= $5), 0)) / $7 + 1e-9))::int END FROM "Run" r WHERE r."id" = $3)`,
};

const SQL = {
  // Each half stays on the (runId, modelConfigId, status) index; the union is cut to n in id order.
  // better-sqlite3 binds plain ? in order: the arguments are repeated where a value is used twice (SQLITE_ARGS).
  sqlite: `UPDATE "Query" SET "status" = 'leased', "leaseOwner" = ?, "leaseUntil" = ?
    WHERE "id" IN (SELECT "id" FROM (
      SELECT "id" FROM (SELECT q."id" FROM "Query" q WHERE q."runId" = ? AND q."modelConfigId" = ? AND ${DUE.replaceAll("$NOW", "?")} AND ${CALLING_RUN} ORDER BY q."id" LIMIT ?)
      UNION ALL
      SELECT "id" FROM (SELECT q."id" FROM "Query" q WHERE q."runId" = ? AND q."modelConfigId" = ? AND ${EXPIRED.replaceAll("$NOW", "?")} AND ${CALLING_RUN} LIMIT ?)
    ) ORDER BY "id" LIMIT ?)
    RETURNING ${RETURNING}`,
  postgresql: `UPDATE "Query" SET "status" = 'leased', "leaseOwner" = $1, "leaseUntil" = $2
    WHERE "id" IN (
      SELECT q."id" FROM "Query" q
      WHERE q."runId" = $3 AND q."modelConfigId" = $4 AND ((${DUE.replaceAll("$NOW", "$5")}) OR (${EXPIRED.replaceAll("$NOW", "$5")})) AND ${CALLING_RUN}
      ORDER BY q."id" LIMIT $6
      FOR UPDATE SKIP LOCKED)
    RETURNING ${RETURNING}`,
};

/** The claim with a reservation: sets each row's reservedUsd and bounds the count by what the budget covers. */
const RESERVING = {
  sqlite: SQL.sqlite
    .replace(`"leaseUntil" = ?`, `"leaseUntil" = ?, "reservedUsd" = ?`)
    .replace(/ORDER BY "id" LIMIT \?\)\s*RETURNING/, `ORDER BY "id" LIMIT MIN(?, ${AFFORDABLE.sqlite}))\n    RETURNING`),
  postgresql: SQL.postgresql
    .replace(`"leaseUntil" = $2`, `"leaseUntil" = $2, "reservedUsd" = $7`)
    .replace(`ORDER BY q."id" LIMIT $6`, `ORDER BY q."id" LIMIT LEAST($6, ${AFFORDABLE.postgresql})`),
};
if (!RESERVING.sqlite.includes("MIN(?") || !RESERVING.postgresql.includes("LEAST($6")) throw new Error("claim SQL changed shape");

export async function claimQueries(prisma: PrismaClient, req: ClaimRequest): Promise<Claimed[]> {
  const dialect = dialectOf(prisma);
  const d = DIALECTS[dialect];
  const now = new Date();
  const until = new Date(now.getTime() + req.leaseMs);
  const [token, leaseUntil, run, model, at, n] = [req.token, d.bind(until), req.runId, req.modelConfigId, d.bind(now), req.n];
  const w = req.reserve && req.reserve.perQueryUsd > 0 ? req.reserve.perQueryUsd : null;
  const wave = String(Math.max(0, Math.floor(Number(req.maxWave ?? 0)) || 0));
  const sql = (text: string) => text.replaceAll("$WAVE", wave);
  let rows: Array<Record<string, unknown>>;
  if (w === null) {
    const args = dialect === "sqlite" ? [token, leaseUntil, run, model, at, n, run, model, at, n, n] : [token, leaseUntil, run, model, at, n];
    rows = await prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(sql(SQL[dialect]), ...args);
  } else if (dialect === "sqlite") {
    // One statement: SQLite runs it alone, so the budget read and the reservation cannot interleave with another's.
    rows = await prisma.$queryRawUnsafe(sql(RESERVING.sqlite), token, leaseUntil, w, run, model, at, n, run, model, at, n, n, n, at, w, run);
  } else {
    // PostgreSQL: claims of one budgeted run are serialised on its row, so two workers never spend the same dollar.
    rows = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT 1 FROM "Run" WHERE "id" = $1 FOR UPDATE`, run);
      return tx.$queryRawUnsafe<Array<Record<string, unknown>>>(sql(RESERVING.postgresql), token, leaseUntil, run, model, at, n, w);
    });
  }
  if (!rows.length) return [];
  // Raw rows: integers may come back as bigint; text as text.
  const claimed = rows
    .map((r): Claimed => ({
      id: Number(r.id),
      runId: String(r.runId),
      modelConfigId: String(r.modelConfigId),
      modality: String(r.modality),
      test: String(r.test),
      context: r.context === null ? null : String(r.context),
      statisticId: String(r.statisticId),
      level: String(r.level),
      attribute: r.attribute === null ? null : String(r.attribute),
      scenarioIndex: r.scenarioIndex === null ? null : Number(r.scenarioIndex),
      repeatIndex: Number(r.repeatIndex),
      prompt: String(r.prompt),
      optionsJson: String(r.optionsJson),
      identityJson: r.identityJson === null ? null : String(r.identityJson),
      groundTruthJson: String(r.groundTruthJson),
      attempts: Number(r.attempts),
      cacheKey: String(r.cacheKey),
      dependsOnId: r.dependsOnId === null ? null : Number(r.dependsOnId),
    }))
    .sort((a, b) => a.id - b.id);
  return withCache(prisma, claimed, req.runId, req.reuse ?? null);
}

/** The cached first answer of each claimed row, looked up for the whole batch: the run's own, or as its launch allowed. */
async function withCache(prisma: PrismaClient, rows: Claimed[], runId: string, reuse: AnswerReuse | null): Promise<Claimed[]> {
  const byKey = await cachedAnswers(
    prisma,
    runId,
    reuse,
    rows.map((r) => r.cacheKey),
  );
  for (const r of rows) {
    const hit = byKey.get(r.cacheKey);
    r.cachedText = hit?.rawText ?? null;
    r.cachedImageSha256 = hit?.imageSha256 ?? null;
    r.cachedFrom = hit && hit.fromRunId !== null ? { fromRunId: hit.fromRunId, at: hit.obtainedAt } : null;
  }
  return rows;
}

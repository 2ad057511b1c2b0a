// Claiming work: a worker leases up to n due queries of one run × model under its claim token, for leaseMs. A lease
// carries the worker's unique id and expires by time only; an expired lease is claimable again.
//   SQLite: one write transaction (SQLite serialises writers, so two workers never claim the same row).
//   PostgreSQL: one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) — workers on many hosts claim in
//   parallel without waiting on each other's rows, and each row goes to exactly one of them.
import type { PrismaClient } from "../../generated/prisma/client";
import { dialectOf } from "../db/dialect";
import type { Claimed } from "./work-types";

export interface ClaimRequest {
  runId: string;
  modelConfigId: string;
  n: number;
  /** the worker's id plus a sequence number: which rows this claim took */
  token: string;
  leaseMs: number;
}

const CLAIMED_SELECT = { id: true, runId: true, modelConfigId: true, modality: true, test: true, context: true, statisticId: true, level: true, attribute: true, repeatIndex: true, prompt: true, optionsJson: true, identityJson: true, attempts: true, cacheKey: true, dependsOnId: true } as const;

export async function claimQueries(prisma: PrismaClient, req: ClaimRequest): Promise<Claimed[]> {
  const now = new Date();
  const until = new Date(now.getTime() + req.leaseMs);
  if (dialectOf(prisma) === "postgresql") {
    // Due (no backoff pending) and not waiting on a helper's answer; or leased by someone whose lease expired.
    const taken = await prisma.$queryRawUnsafe<Array<{ id: number }>>(
      `UPDATE "Query" SET "status" = 'leased', "leaseOwner" = $1, "leaseUntil" = $2
       WHERE "id" IN (
         SELECT q."id" FROM "Query" q
         WHERE q."runId" = $3 AND q."modelConfigId" = $4 AND (
           (q."status" = 'pending' AND (q."nextAttemptAt" IS NULL OR q."nextAttemptAt" <= $5)
             AND (q."dependsOnId" IS NULL OR EXISTS (SELECT 1 FROM "Outcome" o WHERE o."queryId" = q."dependsOnId")))
           OR (q."status" = 'leased' AND q."leaseUntil" < $5))
         ORDER BY q."id" LIMIT $6
         FOR UPDATE SKIP LOCKED)
       RETURNING "id"`,
      req.token,
      until,
      req.runId,
      req.modelConfigId,
      now,
      req.n,
    );
    if (!taken.length) return [];
    return withCache(prisma, await prisma.query.findMany({ where: { id: { in: taken.map((t) => t.id) }, leaseOwner: req.token, status: "leased" }, select: CLAIMED_SELECT, orderBy: { id: "asc" } }));
  }
  const due = { AND: [{ OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: now } }] }, { OR: [{ dependsOnId: null }, { dependsOn: { outcome: { isNot: null } } }] }] };
  return prisma.$transaction(async (tx) => {
    // Two narrow lookups (pending in id order; expired leases) keep the claim on the (runId, modelConfigId, status)
    // index instead of scanning the run's finished rows.
    const pending = await tx.query.findMany({ where: { runId: req.runId, modelConfigId: req.modelConfigId, status: "pending", ...due }, select: { id: true }, orderBy: { id: "asc" }, take: req.n });
    const expired =
      pending.length < req.n
        ? await tx.query.findMany({ where: { runId: req.runId, modelConfigId: req.modelConfigId, status: "leased", leaseUntil: { lt: now } }, select: { id: true }, take: req.n - pending.length })
        : [];
    const ids = [...pending, ...expired].map((r) => r.id);
    if (!ids.length) return [];
    await tx.query.updateMany({
      where: { id: { in: ids }, OR: [{ status: "pending" }, { status: "leased", leaseUntil: { lt: now } }] },
      data: { status: "leased", leaseOwner: req.token, leaseUntil: until },
    });
    return withCache(tx as unknown as PrismaClient, await tx.query.findMany({ where: { id: { in: ids }, leaseOwner: req.token, status: "leased" }, select: CLAIMED_SELECT }));
  });
}

/** The cached first answer of each claimed row, looked up for the whole batch. */
async function withCache(prisma: PrismaClient, rows: Claimed[]): Promise<Claimed[]> {
  if (!rows.length) return rows;
  const hits = await prisma.responseCache.findMany({ where: { key: { in: rows.map((r) => r.cacheKey) } }, select: { key: true, rawText: true, imageSha256: true } });
  const byKey = new Map(hits.map((h) => [h.key, h]));
  for (const r of rows) {
    r.cachedText = byKey.get(r.cacheKey)?.rawText ?? null;
    r.cachedImageSha256 = byKey.get(r.cacheKey)?.imageSha256 ?? null;
  }
  return rows;
}

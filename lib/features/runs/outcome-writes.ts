// Writing a worker's buffered results: outcomes (with their images), cache entries, retries and spend, all in one
// transaction, so a batch is written whole or not at all, and a query never gets a second outcome. Every list of
// ids is cut into bounded slices (lib/db/chunks.ts): a batch of any size stays within each database's parameter limit.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import { insertMany } from "../../db/bulk";
import { chunked } from "../../db/chunks";
import type { Write } from "./work-types";
import { instruments } from "../../core/metrics";
import { clearMarks } from "./call-marks";

/**
 * Writes a batch in one transaction (idempotent per query: an outcome already there is not written again). `owner`:
 * the worker whose calls these results are — their call marks go with them (./call-marks.ts).
 */
export async function writeBatch(prisma: PrismaClient, batch: readonly Write[], owner = ""): Promise<void> {
  const outcomes = batch.filter((w): w is Extract<Write, { kind: "outcome" }> => w.kind === "outcome");
  const retries = batch.filter((w): w is Extract<Write, { kind: "retry" }> => w.kind === "retry");
  const releases = batch.filter((w): w is Extract<Write, { kind: "release" }> => w.kind === "release");
  const cacheRows = batch.flatMap((w) => (w.kind === "cache" ? w.rows : w.kind === "outcome" ? w.cacheRows : []));
  const marked = [...outcomes, ...retries].filter((w) => w.marked).map((w) => w.query.id);
  // Usage a provider reported beyond what the request allowed: never charged, counted on the run as a finding.
  const excessByRun = new Map<string, { calls: number; usd: number }>();
  for (const w of [...outcomes, ...retries]) {
    if (!w.usageExcess) continue;
    const e = excessByRun.get(w.query.runId) ?? { calls: 0, usd: 0 };
    excessByRun.set(w.query.runId, { calls: e.calls + w.usageExcess.calls, usd: e.usd + w.usageExcess.usd });
  }

  // What this batch recorded, counted once its transaction commits (an outcome another worker wrote first is not).
  let recorded: typeof outcomes = [];
  await prisma.$transaction(async (tx) => {
    recorded = [];
    // A marked call whose mark is gone was charged at its worst case when this worker was taken for dead: its cost is
    // not added again (each call charged once).
    const chargedAlready = marked.length ? await clearMarks(tx, owner, marked) : new Set<number>();
    const spendByRun = new Map<string, number>();
    for (const o of outcomes)
      if (!(o.marked && chargedAlready.has(o.query.id))) spendByRun.set(o.query.runId, (spendByRun.get(o.query.runId) ?? 0) + o.costUsd);
    // A retry's paid asks count too (only once: a retry is written only by the worker that holds the lease).
    for (const r of retries)
      if (r.costUsd && !(r.marked && chargedAlready.has(r.query.id))) spendByRun.set(r.query.runId, (spendByRun.get(r.query.runId) ?? 0) + r.costUsd);
    if (cacheRows.length) {
      const existing = new Set<string>();
      // keyed by (key, run): each run keeps the answers it obtained (./answer-cache.ts)
      const id = (r: { key: string; runId: string }) => `${r.key}|${r.runId}`;
      for (const keys of chunked([...new Set(cacheRows.map((r) => r.key))]))
        for (const r of await tx.responseCache.findMany({ where: { key: { in: keys } }, select: { key: true, runId: true } })) existing.add(id(r));
      const fresh = new Map(cacheRows.filter((r) => !existing.has(id(r))).map((r) => [id(r), r]));
      const now = new Date();
      await insertMany(
        tx,
        "ResponseCache",
        [...fresh.values()].map((r) => ({
          key: r.key,
          runId: r.runId,
          provider: r.provider,
          model: r.model,
          rawText: r.text,
          imageSha256: r.imageSha256 ?? null,
          inputTokens: r.inputTokens,
          outputTokens: r.outputTokens,
          costUsd: r.costUsd,
          createdAt: now,
        })),
        { orIgnore: true },
      );
    }
    if (outcomes.length) {
      // A query can only get one outcome: an expired lease re-claimed by another worker may have finished it.
      const done = new Set<number>();
      for (const ids of chunked(outcomes.map((o) => o.query.id)))
        for (const o of await tx.outcome.findMany({ where: { queryId: { in: ids } }, select: { queryId: true } })) done.add(o.queryId);
      const fresh = outcomes.filter((o) => !done.has(o.query.id));
      recorded = fresh;
      const now = new Date();
      await insertMany(
        tx,
        "Outcome",
        fresh.map((o) => ({
          queryId: o.query.id,
          status: o.status,
          reason: o.reason,
          rawText: o.rawText,
          parsedLetter: o.letter,
          gender: o.values.gender,
          race: o.values.race,
          attempts: o.attempts.length,
          attemptsJson: JSON.stringify(o.attempts),
          latencyMs: o.latencyMs,
          inputTokens: o.inputTokens,
          outputTokens: o.outputTokens,
          costUsd: o.costUsd,
          usageExcessUsd: o.usageExcess ? o.usageExcess.usd : null,
          cached: o.cached,
          reusedFromRunId: o.reused?.fromRunId ?? null,
          reusedAt: o.reused?.at ?? null,
          createdAt: now,
        })),
      );
      const images = fresh.filter((o) => o.image);
      if (images.length)
        await insertMany(
          tx,
          "Image",
          images.map((o) => ({
            id: `img${randomUUID().replaceAll("-", "")}`,
            runId: o.query.runId,
            queryId: o.query.id,
            modelConfigId: o.query.modelConfigId,
            test: o.query.test,
            statisticId: o.query.statisticId,
            level: o.query.level,
            sha256: o.image!.sha256,
            path: o.image!.path,
            mimeType: o.image!.mimeType,
            width: o.image!.width,
            height: o.image!.height,
            bytes: o.image!.bytes,
            source: "generated",
            originalName: null,
            labelStatus: "unlabelled",
            createdAt: now,
          })),
        );
      for (const status of ["answered", "refused", "failed"] as const) {
        const ids = fresh.filter((o) => o.status === status).map((o) => o.query.id);
        for (const slice of chunked(ids)) await tx.query.updateMany({ where: { id: { in: slice } }, data: { status, leaseOwner: null, leaseUntil: null } });
      }
    }
    for (const r of retries)
      await tx.query.updateMany({
        where: { id: r.query.id, status: "leased" },
        data: { status: "pending", attempts: { increment: 1 }, nextAttemptAt: r.nextAttemptAt, leaseOwner: null, leaseUntil: null },
      });
    for (const slice of chunked(releases.map((r) => r.query.id)))
      await tx.query.updateMany({ where: { id: { in: slice }, status: "leased" }, data: { status: "pending", leaseOwner: null, leaseUntil: null } });
    for (const [runId, usd] of spendByRun) if (usd > 0) await tx.run.update({ where: { id: runId }, data: { spentUsd: { increment: usd } } });
    for (const [runId, e] of excessByRun)
      await tx.run.update({ where: { id: runId }, data: { overReportedCalls: { increment: e.calls }, usageExcessUsd: { increment: e.usd } } });
  });
  const counts = new Map<string, number>();
  for (const o of recorded) counts.set(`${o.query.modality}|${o.status}`, (counts.get(`${o.query.modality}|${o.status}`) ?? 0) + 1);
  for (const [key, n] of counts) {
    const [modality, outcome] = key.split("|");
    instruments().outcomesWritten.inc({ modality, outcome }, n);
  }
}

// A model's concurrency (and rate limits) held across every worker on every host: each worker keeps a lease
// (ModelSlotLease) on its share and renews it every few seconds. A renewal, serialised per model, grants at most
// what the live leases leave free; a holder above its fair part gives way when another worker wants more; a lease
// that is not renewed (a killed worker) expires by time and its share returns to the others.
import type { PrismaClient } from "../../../generated/prisma/client";
import { lockRow } from "../../db/dialect";

export interface ShareRequest {
  modelConfigId: string;
  /** slots this worker would use now (at most the model's concurrency) */
  want: number;
  /** calls this worker has running (its lease never claims less than it uses) */
  inFlight: number;
}

/**
 * The share this worker may use: never more than the model's limit minus what other live leases hold (their
 * running calls included), and no more than the fair part (limit / holders) while another holder wants more.
 */
export function grantFor(req: { concurrency: number; want: number }, others: Array<{ granted: number; wanted: number }>): number {
  const held = others.reduce((a, o) => a + o.granted, 0);
  const free = Math.max(0, req.concurrency - held);
  let grant = Math.min(req.want, free);
  if (others.some((o) => o.wanted > o.granted)) grant = Math.min(grant, Math.floor(req.concurrency / (others.length + 1)));
  return Math.max(0, grant);
}

export interface Share {
  /** slots this worker may use now */
  grant: number;
  /** the model's limits as they are now (an edit on the Models page reaches running workers here) */
  concurrency: number;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
}

export async function renewShare(prisma: PrismaClient, owner: string, req: ShareRequest, leaseMs: number): Promise<Share> {
  return prisma.$transaction(async (tx) => {
    await lockRow(tx, "ModelConfig", req.modelConfigId);
    const model = await tx.modelConfig.findUniqueOrThrow({
      where: { id: req.modelConfigId },
      select: { concurrency: true, requestsPerMinute: true, tokensPerMinute: true },
    });
    const concurrency = Math.max(1, model.concurrency);
    const now = new Date();
    const others = await tx.modelSlotLease.findMany({
      where: { modelConfigId: req.modelConfigId, owner: { not: owner }, expiresAt: { gt: now } },
      select: { granted: true, wanted: true },
    });
    const grant = grantFor({ concurrency, want: Math.min(req.want, concurrency) }, others);
    // What the lease records covers the calls still running after a cut, so others never count them as free.
    const data = { granted: Math.max(grant, req.inFlight), wanted: req.want, expiresAt: new Date(now.getTime() + leaseMs) };
    await tx.modelSlotLease.upsert({
      where: { modelConfigId_owner: { modelConfigId: req.modelConfigId, owner } },
      create: { modelConfigId: req.modelConfigId, owner, ...data },
      update: data,
    });
    return { grant, concurrency, requestsPerMinute: model.requestsPerMinute, tokensPerMinute: model.tokensPerMinute };
  });
}

export async function releaseShares(prisma: PrismaClient, owner: string): Promise<void> {
  await prisma.modelSlotLease.deleteMany({ where: { owner } });
}

/** Expired leases are only history: removed now and then by any worker. */
export async function sweepExpiredShares(prisma: PrismaClient): Promise<number> {
  return (await prisma.modelSlotLease.deleteMany({ where: { expiresAt: { lt: new Date(Date.now() - 60_000) } } })).count;
}

// A run's judge passes as the pages and the API show them: who judged, how far, at what cost.
import type { PrismaClient } from "../../../generated/prisma/client";

export async function judgePasses(prisma: PrismaClient, runId: string) {
  const passes = await prisma.judgePass.findMany({
    where: { runId },
    orderBy: { createdAt: "desc" },
    take: 20,
    include: { modelConfig: { select: { slug: true } }, _count: { select: { judgments: true } } },
  });
  return passes.map((p) => ({
    id: p.id,
    judge: p.modelConfig.slug,
    rubricVersion: p.rubricVersion,
    status: p.status,
    total: p.total,
    judged: p._count.judgments,
    costUsd: p.costUsd + p.inflightUsd,
    budgetUsd: p.budgetUsd,
    error: p.error,
    createdAt: p.createdAt.toISOString(),
    finishedAt: p.finishedAt?.toISOString() ?? null,
  }));
}

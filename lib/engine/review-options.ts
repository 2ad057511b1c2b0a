// Choices for the review pages' filters: T2I runs with faces, their models, the statistics, the assignments.
import type { PrismaClient } from "../../generated/prisma/client";
import { benchmark } from "../benchmark/data";

export async function reviewOptions(prisma: PrismaClient) {
  const [runs, models, assignments] = await Promise.all([
    prisma.run.findMany({ where: { modality: "t2i", images: { some: {} } }, select: { id: true, name: true }, orderBy: { createdAt: "desc" } }),
    prisma.modelConfig.findMany({ where: { modality: "t2i", images: { some: {} } }, select: { slug: true, label: true }, orderBy: { label: "asc" } }),
    prisma.assignment.findMany({ select: { id: true, name: true }, orderBy: { createdAt: "desc" } }),
  ]);
  return { runs, models, statistics: benchmark.statistics.map((s) => ({ id: s.id, name: s.name })), assignments };
}

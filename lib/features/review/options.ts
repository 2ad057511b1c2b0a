// Choices for the review pages' filters: T2I runs with faces (and their suites), their models, each suite's own
// coordinates (Suite.reviewFilters: what its images' columns mean to it — items, levels, tests …), the assignments.
import type { PrismaClient } from "../../../generated/prisma/client";
import { listSuites } from "../../suites";
import { clientFilters, suiteFilters } from "../../suites/filters";

export async function reviewOptions(prisma: PrismaClient) {
  const [runs, models, assignments] = await Promise.all([
    prisma.run.findMany({ where: { modality: "t2i", images: { some: {} } }, select: { id: true, name: true, suiteId: true }, orderBy: { createdAt: "desc" } }),
    prisma.modelConfig.findMany({ where: { modality: "t2i", images: { some: {} } }, select: { slug: true, label: true }, orderBy: { label: "asc" } }),
    prisma.assignment.findMany({ where: { kind: "faces" }, select: { id: true, name: true }, orderBy: { createdAt: "desc" } }),
  ]);
  const withImages = new Set(runs.map((r) => r.suiteId));
  const suites = listSuites()
    .filter((s) => withImages.has(s.id))
    .map((s) => ({ id: s.id, name: s.name, filters: clientFilters(suiteFilters(s.id)) }));
  return { runs, models, suites, assignments };
}

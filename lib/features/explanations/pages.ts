// What the explanation pages read (pages never query the database themselves): a reviewer's assignments, the runs
// that asked for reasoning, the models that may judge, whether a run reasoned.
import type { PrismaClient } from "../../../generated/prisma/client";
import { isCotRun } from "./items";

/** The explanation assignments with items dealt to this reviewer, newest first. */
export async function myExplanationAssignments(prisma: PrismaClient, annotator: string) {
  const found = await prisma.assignment.findMany({
    where: { kind: "explanations", items: { some: { annotator } } },
    orderBy: { id: "desc" },
    take: 50,
    select: { id: true, name: true, createdAt: true, _count: { select: { items: { where: { annotator } } } } },
  });
  return found.map((a) => ({ id: a.id, name: a.name, createdAt: a.createdAt.toISOString(), dealt: a._count.items }));
}

/** The newest runs that asked for reasoning (chain of thought). */
export async function cotRuns(prisma: PrismaClient) {
  const runs = await prisma.run.findMany({
    where: { configJson: { contains: '"cot":true' } },
    orderBy: { createdAt: "desc" },
    take: 100,
    select: { id: true, name: true, suiteId: true, configJson: true },
  });
  return runs.filter(isCotRun).map((r) => ({ id: r.id, name: r.name }));
}

export async function runReasoned(prisma: PrismaClient, runId: string): Promise<boolean> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { suiteId: true, configJson: true } });
  return !!run && isCotRun(run);
}

/** The chat models that may judge: registered ones, and the offline test judge (never a baseline answerer). */
export async function judgeModels(prisma: PrismaClient) {
  const models = await prisma.modelConfig.findMany({
    where: { modality: "llm", archived: false },
    select: { slug: true, label: true },
    orderBy: { slug: "asc" },
  });
  return models.filter((m) => !m.slug.startsWith("baseline:") || m.slug === "baseline:judge").map((m) => ({ slug: m.slug, label: `${m.label} (${m.slug})` }));
}

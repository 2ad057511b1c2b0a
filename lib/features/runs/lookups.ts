// Reading runs for pages and route handlers: the run lists, one run's header, the settings a report prints. Pages
// call these instead of querying the database, so the HTTP API and the CLI read runs the same way.
import { adaptiveStateOf, adaptiveSummary, targetText } from "../../results/adaptive";
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError } from "../../core/errors";

/** The most runs a list page shows (newest first). */
const LIST_LIMIT = 100;

/** What a page needs to know a run exists and which suite reads it (null: no such run). */
export function runHeader(prisma: PrismaClient, id: string) {
  return prisma.run.findUnique({
    where: { id },
    select: { id: true, name: true, modality: true, suiteId: true, status: true, createdById: true, reuseJson: true },
  });
}

/** Several runs' headers, in no particular order; ids that are not runs are simply absent. */
export function runHeaders(prisma: PrismaClient, ids: string[]) {
  return prisma.run.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, modality: true, suiteId: true, status: true } });
}

/** The Runs page: newest first, with their models' labels and image counts. */
export function listRuns(prisma: PrismaClient) {
  return prisma.run.findMany({
    orderBy: { createdAt: "desc" },
    take: LIST_LIMIT,
    include: { models: { include: { modelConfig: { select: { label: true } } } }, _count: { select: { images: true } } },
  });
}

/** Earlier imports (images may be added to one), newest first, with their model's slug. */
export function listImportRuns(prisma: PrismaClient) {
  return prisma.run.findMany({
    where: { preset: "import" },
    orderBy: { createdAt: "desc" },
    take: LIST_LIMIT,
    include: { models: { include: { modelConfig: { select: { slug: true } } } } },
  });
}

/** The run as a printable report reads it: its pinned content and each model's settings (null: no such run). */
export function reportRun(prisma: PrismaClient, id: string) {
  return prisma.run.findUnique({
    where: { id },
    include: {
      benchmarkVersion: { select: { version: true, sha256: true } },
      models: { include: { modelConfig: { select: { slug: true, label: true, provider: true, modelId: true, baseUrl: true, paramsJson: true } } } },
    },
  });
}
export type ReportRun = NonNullable<Awaited<ReturnType<typeof reportRun>>>;

/** The home page's tiles. */
export async function workspaceCounts(prisma: PrismaClient) {
  const [runs, models, images] = await Promise.all([prisma.run.count(), prisma.modelConfig.count({ where: { archived: false } }), prisma.image.count()]);
  return { runs, models, images };
}

/**
 * Runs for the HTTP API, newest first: what a CI job needs to find and follow its runs. Paged by key: `before` = the
 * previous page's last run (its `next`), so a page reads its own rows at any depth; null `next`: no more.
 */
export async function runList(prisma: PrismaClient, q: { suite?: string; status?: string; id?: string; limit: number; before?: string }) {
  if (q.before && !(await prisma.run.findUnique({ where: { id: q.before }, select: { id: true } })))
    throw new DomainError("invalid", `before: no run "${q.before}" (pass the previous page's next)`);
  const take = Math.min(LIST_LIMIT, q.limit);
  const found = await prisma.run.findMany({
    where: { ...(q.id ? { id: q.id } : {}), ...(q.suite ? { suiteId: q.suite } : {}), ...(q.status ? { status: q.status } : {}) },
    // id breaks ties between runs created in the same millisecond, so pages neither repeat nor skip one
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    ...(q.before ? { cursor: { id: q.before }, skip: 1 } : {}),
    take: take + 1,
    select: {
      id: true,
      name: true,
      suiteId: true,
      modality: true,
      status: true,
      preset: true,
      seed: true,
      plannedCount: true,
      budgetUsd: true,
      spentUsd: true,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      adaptiveJson: true,
      models: { select: { modelConfig: { select: { slug: true } } } },
    },
  });
  const runs = found.slice(0, take);
  return {
    runs: runs.map(({ models, suiteId, adaptiveJson, ...r }) => ({
      ...r,
      suite: suiteId,
      models: models.map((m) => m.modelConfig.slug),
      /** adaptive runs: the target and the verdict in one line (null for runs of fixed size) */
      adaptive: adaptiveBrief(adaptiveJson, r),
    })),
    next: found.length > take ? runs[runs.length - 1].id : null,
  };
}

function adaptiveBrief(json: string | null, run: { status: string; budgetUsd: number | null }) {
  const state = adaptiveStateOf(json);
  if (!state) return null;
  return { until: targetText(state), outcome: state.outcome?.kind ?? null, summary: adaptiveSummary(state, run) };
}

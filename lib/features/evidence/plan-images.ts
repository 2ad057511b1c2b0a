// Images against the plan: an image's coordinates (test, statistic or item, level) are what the scores group it by,
// so they may not say other than the plan does. A generated image is its query's — the same model and coordinates, a
// query of this run; an imported image (a run of preset "import": images made elsewhere, no query planned or called)
// stands at a prompt the run's configuration plans and is one of the images its batches signed as they were
// committed (lib/evidence/imports.ts). Part of the plan check (./plan-check.ts).
import type { PrismaClient } from "../../../generated/prisma/client";
import { imageKey, importedKeys, type ImportedImage } from "../../evidence/imports";
import type { AnySuite } from "../../suites/types";

const PAGE = 2000;

export async function imagesAgainstPlan(
  prisma: PrismaClient,
  p: {
    runId: string;
    imported: boolean;
    /** an import's signed batches: its images must be exactly these (a multiset of hash and prompt) */
    batches: ImportedImage[] | null;
    plannedAt: () => Iterable<{ test: string; statisticId: string; level: string }>;
  },
  problem: (p: string) => void,
): Promise<number> {
  const signed = p.batches ? importedKeys(p.batches) : null;
  if (p.imported && (await prisma.query.count({ where: { runId: p.runId } })) > 0)
    problem("an import's run has queries: its images were made elsewhere, nothing was planned or called");
  const prompts = p.imported ? new Set([...p.plannedAt()].map((q) => `${q.test}\u0000${q.statisticId}\u0000${q.level}`)) : null;
  let after = "";
  let seen = 0;
  for (;;) {
    const page = await prisma.image.findMany({
      where: { runId: p.runId, id: { gt: after } },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        modelConfigId: true,
        test: true,
        statisticId: true,
        level: true,
        source: true,
        sha256: true,
        queryId: true,
        query: { select: { runId: true, modelConfigId: true, test: true, statisticId: true, level: true } },
      },
    });
    if (!page.length) {
      const missing = signed ? [...signed.values()].reduce((n, v) => n + v, 0) : 0;
      if (missing)
        problem(`${missing} image${missing === 1 ? "" : "s"} signed when the import was committed ${missing === 1 ? "is" : "are"} not in the bundle`);
      return seen;
    }
    after = page.at(-1)!.id;
    for (const im of page) {
      seen++;
      const at = `${im.test} · ${im.statisticId} · ${im.level}`;
      if (prompts) {
        if (im.source !== "imported" || im.queryId !== null) problem(`image ${im.id}: in an import, yet ${im.source} for query ${im.queryId ?? "none"}`);
        else if (!prompts.has(`${im.test}\u0000${im.statisticId}\u0000${im.level}`))
          problem(`image ${im.id}: at ${at}, a prompt the run's configuration does not plan`);
        if (signed) {
          const k = imageKey({ sha256: im.sha256, test: im.test, statisticId: im.statisticId, level: im.level });
          const left = signed.get(k) ?? 0;
          if (left === 0) problem(`image ${im.id} (SHA-256 ${im.sha256.slice(0, 12)}… at ${at}): not among the images signed when the import was committed`);
          else signed.set(k, left - 1);
        }
        continue;
      }
      const q = im.query;
      if (im.source !== "generated" || !q || q.runId !== p.runId) {
        problem(`image ${im.id}: ${im.source}, ${q ? "of another run's query" : "of no query"} in a run whose images its queries generated`);
        continue;
      }
      const theirs = `${q.test} · ${q.statisticId} · ${q.level}`;
      if (theirs !== at || q.modelConfigId !== im.modelConfigId)
        problem(`image ${im.id}: stored at ${at}${q.modelConfigId !== im.modelConfigId ? " for another model" : ""}, its query ${im.queryId} is at ${theirs}`);
    }
  }
}

/** The prompts a configuration plans (test, statistic, level), for an import's images. */
export function* plannedPrompts(suite: AnySuite, config: unknown, content: Parameters<AnySuite["plan"]>[1], seed: number) {
  for (const q of suite.plan(config, content, seed)) if (q.role === "subject") yield q;
}

// A text-to-image run's images, a page at a time, for the run page's grid and GET /api/runs/:id/images. Keyset
// paging on the image id within the run (indexes (runId, id) and (runId, labelStatus, id)): a page reads its own
// rows and one more, at any depth; the filter's count is shared between pages and readers for a while
// (TOTAL_MAX_AGE_MS) instead of being recounted for every page of a 160,000-image run.
import type { PrismaClient } from "../../../generated/prisma/client";
import { shared } from "../../core/shared";
import { keysetPage, keysetQuery } from "../../core/keyset";
import { faceLabels, type RaceMapping } from "../../faces/labels";
import { TOTAL_MAX_AGE_MS } from "../runs/items";

export interface ImagePageFilter {
  pageSize: number;
  labelStatus?: string;
  raceMapping?: RaceMapping;
  /** the page after the image with this id */
  after?: string;
  /** the page before the image with this id */
  before?: string;
}

export async function runImages(prisma: PrismaClient, runId: string, filter: ImagePageFilter) {
  const where = { runId, ...(filter.labelStatus ? { labelStatus: filter.labelStatus } : {}) };
  const page = keysetQuery(filter);
  const [total, found] = await Promise.all([
    shared(`images-total|${runId}|${filter.labelStatus ?? ""}`, TOTAL_MAX_AGE_MS, () => prisma.image.count({ where })),
    prisma.image.findMany({
      where: { ...where, ...page.where },
      orderBy: page.orderBy,
      take: filter.pageSize + 1,
      include: { modelConfig: { select: { slug: true } }, faces: { where: { deleted: false }, orderBy: { id: "asc" } } },
    }),
  ]);
  const { rows, next, prev } = keysetPage(found, filter.pageSize, filter);
  return {
    total,
    pageSize: filter.pageSize,
    /** cursors: `after` for the next page, `before` for the previous one (null: none that way) */
    next,
    prev,
    rows: rows.map((i) => ({
      id: i.id,
      model: i.modelConfig.slug,
      test: i.test,
      statisticId: i.statisticId,
      level: i.level,
      width: i.width,
      height: i.height,
      source: i.source,
      originalName: i.originalName,
      labelStatus: i.labelStatus,
      faces: i.faces.map((f) => ({ id: f.id, x1: f.x1, y1: f.y1, x2: f.x2, y2: f.y2, score: f.detectorScore, ...faceLabels(f, filter.raceMapping) })),
    })),
  };
}

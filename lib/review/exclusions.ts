// Who is out of the consensus: annotators whose votes an admin excluded (lib/features/review/annotators.ts writes
// the rows, audited). Read by every place that turns labels into a face's human label — scores, exports, the review
// views — so a leaf module with no other import (no cycle through the results feature).
import type { PrismaClient } from "../../generated/prisma/client";

/** The annotators whose votes are out of every consensus (a handful of rows: read whole). */
export async function excludedAnnotators(prisma: Pick<PrismaClient, "annotatorExclusion">): Promise<Set<string>> {
  const rows = await prisma.annotatorExclusion.findMany({ select: { annotator: true } });
  return new Set(rows.map((r) => r.annotator));
}

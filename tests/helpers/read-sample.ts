// Reviewers reading every explanation of a sample dealt to them, through their own queue, with the errors the test
// model planted (lib/providers/explainer.ts) — or what `miss` leaves of them for one reader (a reviewer who errs).
// Shared by the explanation tests and bench:explanations.
import type { PrismaClient } from "../../generated/prisma/client";
import { explanationQueue, saveReading } from "../../lib/features/explanations/readings";
import { plantedIn } from "../../lib/providers/explainer";

type Planted = ReturnType<typeof plantedIn>[number];

export async function readSample(
  prisma: PrismaClient,
  assignmentId: string,
  readers: readonly string[],
  /** which planted errors a reader misses (none by default) */
  miss: (reader: string, planted: Planted) => boolean = () => false,
) {
  for (const who of readers)
    for (;;) {
      const q = await explanationQueue(prisma, who, { assignmentId, pageSize: 50 });
      if (!q.items.length) break;
      for (const item of q.items)
        await saveReading(prisma, who, {
          outcomeId: item.outcomeId,
          reading: {
            tags: plantedIn(item.explanation)
              .filter((p) => !miss(who, p))
              .map((p) => ({ tag: p.error, start: p.start, end: p.end })),
          },
        });
    }
}

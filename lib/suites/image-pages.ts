// A run's labelled images (faces detected and classified, or none found) in id order, a page at a time, with the
// columns a suite asks for: how every image suite reads a run without holding it in memory.
import type { Prisma, PrismaClient } from "../../generated/prisma/client";

export async function* labelledImagePages<S extends Prisma.ImageSelect & { id: true }>(
  prisma: PrismaClient,
  runId: string,
  select: S,
  where: Prisma.ImageWhereInput = {},
  pageSize = 500,
): AsyncGenerator<Array<Prisma.ImageGetPayload<{ select: S }>>> {
  let cursor: string | undefined;
  for (;;) {
    const rows = (await prisma.image.findMany({
      where: { ...where, runId, labelStatus: { in: ["labelled", "no_face"] } },
      select,
      orderBy: { id: "asc" },
      take: pageSize,
      ...(cursor ? { skip: 1, cursor: { id: cursor } } : {}),
    })) as Array<Prisma.ImageGetPayload<{ select: S }>>;
    if (!rows.length) return;
    cursor = (rows[rows.length - 1] as { id: string }).id;
    yield rows;
    if (rows.length < pageSize) return;
  }
}

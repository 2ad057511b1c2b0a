// Labels made before accounts existed carry a typed annotator name. Each such name becomes a placeholder account
// (disabled, marked as coming from older labels, keeping the name), and every row that named it now names the
// account, so agreement history and majorities stay as they were. Idempotent: run at every start.
import { createHash, randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";

export async function adoptNameOnlyAnnotators(prisma: PrismaClient): Promise<number> {
  const [ann, created, deleted, items, assignments, users] = await Promise.all([
    prisma.annotation.findMany({ distinct: ["annotator"], select: { annotator: true } }),
    prisma.face.findMany({ where: { createdBy: { not: null } }, distinct: ["createdBy"], select: { createdBy: true } }),
    prisma.face.findMany({ where: { deletedBy: { not: null } }, distinct: ["deletedBy"], select: { deletedBy: true } }),
    prisma.assignmentItem.findMany({ distinct: ["annotator"], select: { annotator: true } }),
    prisma.assignment.findMany({ select: { id: true, annotatorsJson: true } }),
    prisma.user.findMany({ select: { id: true } }),
  ]);
  const ids = new Set(users.map((u) => u.id));
  const names = new Set<string>();
  for (const v of [...ann.map((a) => a.annotator), ...created.map((f) => f.createdBy), ...deleted.map((f) => f.deletedBy), ...items.map((i) => i.annotator)])
    if (v && !ids.has(v)) names.add(v);
  for (const a of assignments) for (const v of JSON.parse(a.annotatorsJson) as string[]) if (!ids.has(v)) names.add(v);
  for (const name of names) {
    const id = randomUUID();
    const tag = createHash("sha256").update(name).digest("hex").slice(0, 10);
    await prisma.$transaction(async (tx) => {
      await tx.user.create({ data: { id, name, email: `legacy-${tag}@placeholder.invalid`, role: "annotator", disabled: true, placeholder: true } });
      await tx.annotation.updateMany({ where: { annotator: name }, data: { annotator: id } });
      await tx.face.updateMany({ where: { createdBy: name }, data: { createdBy: id } });
      await tx.face.updateMany({ where: { deletedBy: name }, data: { deletedBy: id } });
      await tx.assignmentItem.updateMany({ where: { annotator: name }, data: { annotator: id } });
      for (const a of await tx.assignment.findMany({ select: { id: true, annotatorsJson: true } })) {
        const list = JSON.parse(a.annotatorsJson) as string[];
        if (list.includes(name))
          await tx.assignment.update({ where: { id: a.id }, data: { annotatorsJson: JSON.stringify(list.map((x) => (x === name ? id : x))) } });
      }
    });
  }
  return names.size;
}

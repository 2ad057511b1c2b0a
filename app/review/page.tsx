import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewPage() {
  await connection();
  const prisma = db();
  const [images, faces, annotations] = await Promise.all([
    prisma.image.count(),
    prisma.face.count({ where: { deleted: false } }),
    prisma.annotation.count(),
  ]);
  return (
    <>
      <PageHeader title="Review" description="Face labels from text-to-image runs, for annotators to check and correct." />
      <Card>
        <dl className="mb-4 grid grid-cols-3 gap-4 text-center text-sm">
          {[
            ["Images", images],
            ["Faces", faces],
            ["Annotations", annotations],
          ].map(([label, n]) => (
            <div key={label as string} className="rounded-md bg-slate-50 p-3">
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className="text-xl font-semibold tabular-nums">{n}</dd>
            </div>
          ))}
        </dl>
        {faces === 0 && <EmptyState title="No faces to review yet" />}
      </Card>
    </>
  );
}

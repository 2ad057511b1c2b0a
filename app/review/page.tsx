import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { reviewOptions } from "@/lib/features/review/options";
import { labelSets } from "@/lib/suites/faces";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ReviewQueue } from "@/components/review/review-queue";
import { FILTER_KEYS, type Filters } from "@/components/review/filters";
import { ReviewTabs } from "@/components/review/review-tabs";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { workspaceCounts } from "@/lib/features/runs/lookups";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await pageGuard("faces.review", "/review");
  await connection();
  const sp = await searchParams;
  const one = (k: string) => (typeof sp[k] === "string" ? (sp[k] as string) : undefined);
  const [options, { images }] = await Promise.all([reviewOptions(db()), workspaceCounts(db())]);
  const initial: Partial<Filters> = Object.fromEntries(FILTER_KEYS.map((k) => [k, one(k)]).filter(([, v]) => v));
  return (
    <>
      <PageHeader
        title="Review"
        description="Check every face the classifier labelled, fix what it got wrong, add missed faces and delete false ones. Each annotator’s labels are kept apart; scores use the majority."
      />
      <ReviewTabs active="/review" />
      {images === 0 ? (
        <EmptyState title="No faces to review yet">
          Faces appear here once a text-to-image run has images (generated or imported) and they are labelled on the Label page.
        </EmptyState>
      ) : (
        <ReviewQueue
          options={options}
          labelSets={labelSets()}
          initial={initial}
          me={{ id: viewer.id, name: viewer.name, canManageGold: can(viewer.role, "annotators.manage") }}
        />
      )}
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { findSuite } from "@/lib/suites";
import { drillCellSchema, resultParams } from "@/lib/suites/params";
import { PageHeader } from "@/components/ui/page-header";
import { SuiteViews } from "@/components/suites/suite-views";
import { pageGuard } from "@/app/guard";
import { RunTabs } from "@/components/runs/run-tabs";
import { runHeader } from "@/lib/features/runs/lookups";

export const metadata: Metadata = { title: "What is behind a result" };

const RESERVED = new Set(["labels", "items", "page", "profile"]);

/** The drill-down of a suite's result cell: the items, images and faces behind it. */
export default async function SuiteDrillPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await pageGuard("results.read", "/runs");
  await connection();
  const id = (await params).id;
  const sp = await searchParams;
  const run = await runHeader(db(), id);
  const suite = run ? findSuite(run.suiteId) : null;
  if (!run || !suite?.drill) notFound();
  const p = resultParams(sp);
  const cellInput = Object.fromEntries(Object.entries(sp).filter(([k, v]) => !RESERVED.has(k) && typeof v === "string"));
  const cell = drillCellSchema.safeParse(cellInput);
  if (!cell.success) notFound();
  const views = await suite.drill({ prisma: db() }, { runId: id, labels: p.labels, cell: cell.data, page: p.page, profile: p.profile });
  const href = (page: number) =>
    `/runs/${id}/suite?${new URLSearchParams({ ...cell.data, labels: p.labels, profile: p.profile, page: String(page) }).toString()}`;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/runs" className="hover:underline">
          Runs
        </Link>{" "}
        /{" "}
        <Link href={`/runs/${id}?labels=${p.labels}`} className="hover:underline">
          {run.name}
        </Link>
      </nav>
      <RunTabs run={run} current="overview" role={viewer.role} />
      <PageHeader title="What is behind this result" description={`${suite.name}: each image with the faces it shows and how it scores.`} />
      <SuiteViews views={views} drillBase={`/runs/${id}/suite`} pageHref={href} />
    </>
  );
}

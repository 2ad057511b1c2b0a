import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { runSummary } from "@/lib/engine";
import { PageHeader } from "@/components/ui/page-header";
import { RunView } from "@/components/runs/run-view";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";

export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const viewer = await pageGuard("results.read", "/runs");
  await connection();
  const summary = await runSummary(db(), (await params).id);
  if (!summary) notFound();
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/runs" className="hover:underline">
          Runs
        </Link>
      </nav>
      <PageHeader title={summary.name} />
      <RunView initial={summary} canManage={can(viewer.role, "runs.manage")} />
    </>
  );
}

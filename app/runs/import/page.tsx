import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { benchmark } from "@/lib/benchmark";
import { PageHeader } from "@/components/ui/page-header";
import { ImportForm } from "@/components/images/import-form";
import { EmptyState } from "@/components/ui/empty-state";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { DEFAULT_SUITE_ID, listSuites } from "@/lib/suites";
import { importableModels } from "@/lib/features/runs/models";
import { listImportRuns } from "@/lib/features/runs/lookups";

export const metadata: Metadata = { title: "Import images" };

export default async function ImportPage({ searchParams }: { searchParams: Promise<{ run?: string }> }) {
  const viewer = await pageGuard("images.import", "/runs/import");
  await connection();
  const [models, runs] = await Promise.all([importableModels(db()), listImportRuns(db())]);
  const { run } = await searchParams;
  return (
    <>
      <PageHeader
        title="Import images"
        description="Images made without an API (the paper placed its Midjourney images by hand): upload files, a folder or a zip, check the mapping, then store. A batch with any bad file stores nothing."
      />
      {models.length === 0 ? (
        <EmptyState title="No text-to-image model registered">
          {/* A runner may import but not register models: only an admin is sent to the Models page. */}
          {can(viewer.role, "models.manage") ? (
            <>
              Register one on the{" "}
              <Link href="/models" className="text-indigo-700 underline">
                Models page
              </Link>{" "}
              (kind “Text-to-image”, provider “Import only”).
            </>
          ) : (
            "An admin registers one on the Models page (kind “Text-to-image”, provider “Import only”)."
          )}
        </EmptyState>
      ) : (
        <ImportForm
          models={models.map((m) => ({ slug: m.slug, label: m.label, provider: m.provider }))}
          runs={runs.map((r) => ({ id: r.id, name: r.name, model: r.models[0]?.modelConfig.slug ?? "", suite: r.suiteId }))}
          suites={listSuites()
            .filter((s) => s.id === DEFAULT_SUITE_ID || s.importer)
            .map((s) => ({ id: s.id, name: s.name, naming: s.importer?.naming ?? "", clip: !!s.clipGroups }))}
          defaultRunId={run ?? null}
          statistics={benchmark.statistics.map((s) => ({ id: s.id, name: s.name }))}
        />
      )}
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { credentialStatus, imageParams } from "@/lib/providers";
import { PageHeader } from "@/components/ui/page-header";
import { LaunchForm } from "@/components/runs/launch-form";
import { T2iLaunchForm } from "@/components/runs/t2i-launch-form";
import { cn } from "@/components/ui/cn";
import { pageGuard } from "@/app/guard";
import { committedUsd } from "@/lib/auth/spending";

export const metadata: Metadata = { title: "Launch a run" };

/** Why a model's calls would fail for want of a usable key (null when they would not). */
function keyMissing(m: { provider: string; apiKeyEnv: string | null; baseUrl: string | null }) {
  return credentialStatus(m).problem;
}

export default async function NewRunPage({ searchParams }: { searchParams: Promise<{ kind?: string }> }) {
  const viewer = await pageGuard("runs.manage", "/runs/new");
  const left = viewer.spendingLimitUsd === null ? null : Math.max(0, viewer.spendingLimitUsd - (await committedUsd(db(), viewer.id)));
  await connection();
  const kind = (await searchParams).kind === "t2i" ? "t2i" : "llm";
  const models = await db().modelConfig.findMany({
    where: { archived: false, modality: kind, ...(kind === "t2i" ? { provider: { not: "import" } } : {}) },
    orderBy: [{ provider: "asc" }, { label: "asc" }],
  });
  const tab = (k: "llm" | "t2i", label: string) => (
    <Link
      href={k === "t2i" ? "/runs/new?kind=t2i" : "/runs/new"}
      aria-current={kind === k ? "page" : undefined}
      className={cn("rounded-md px-3 py-1.5 text-sm font-medium", kind === k ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100")}
    >
      {label}
    </Link>
  );
  return (
    <>
      <PageHeader title="Launch a run" description="Every query is planned and stored before the first call; the run survives restarts." />
      {left !== null && (
        <p className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="spending-limit">
          Your spending limit is ${viewer.spendingLimitUsd!.toFixed(2)}; ${left.toFixed(2)} is left. A run&apos;s budget must fit in it (with no budget, the run gets what is left).
        </p>
      )}
      <nav aria-label="Run kind" className="mb-4 flex gap-2">
        {tab("llm", "LLM run")}
        {tab("t2i", "Text-to-image run")}
        <Link href="/runs/import" className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
          Import images
        </Link>
      </nav>
      {kind === "t2i" ? (
        <T2iLaunchForm
          models={models.map((m) => {
            const p = imageParams(m);
            return { slug: m.slug, label: m.label, provider: m.provider, pricePerImage: m.pricePerImage, size: `${p.width}×${p.height}`, keyMissing: keyMissing(m) };
          })}
        />
      ) : (
        <LaunchForm
          defaultSeed={1}
          models={models.map((m) => ({
            slug: m.slug,
            label: m.label,
            provider: m.provider,
            priceInputPer1k: m.priceInputPer1k,
            priceOutputPer1k: m.priceOutputPer1k,
            keyMissing: keyMissing(m),
          }))}
        />
      )}
    </>
  );
}

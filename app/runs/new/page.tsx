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
import { listSuites } from "@/lib/suites";
import { SuiteLaunchForm } from "@/components/suites/suite-launch-form";
import { suiteContentVersions } from "@/lib/suites/content-versions";

export const metadata: Metadata = { title: "Launch a run" };

function SuiteTabs({ current, suites, kind }: { current: string; suites: Array<{ id: string; name: string }>; kind: string }) {
  const cls = (on: boolean) => cn("rounded-md px-3 py-1.5 text-sm font-medium", on ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100");
  return (
    <nav aria-label="Run kind" className="mb-4 flex flex-wrap gap-2">
      <Link href="/runs/new" className={cls(kind === "llm")}>FACT-OR-FAIR LLM run</Link>
      <Link href="/runs/new?kind=t2i" className={cls(kind === "t2i")}>FACT-OR-FAIR text-to-image run</Link>
      {suites.map((s) => (
        <Link key={s.id} href={`/runs/new?suite=${s.id}`} aria-current={s.id === current ? "page" : undefined} className={cls(s.id === current)}>
          {s.name} run
        </Link>
      ))}
    </nav>
  );
}

/** Why a model's calls would fail for want of a usable key (null when they would not). */
function keyMissing(m: { provider: string; apiKeyEnv: string | null; baseUrl: string | null }) {
  return credentialStatus(m).problem;
}

export default async function NewRunPage({ searchParams }: { searchParams: Promise<{ kind?: string; suite?: string }> }) {
  const viewer = await pageGuard("runs.manage", "/runs/new");
  const left = viewer.spendingLimitUsd === null ? null : Math.max(0, viewer.spendingLimitUsd - (await committedUsd(db(), viewer.id)));
  await connection();
  const sp = await searchParams;
  // Suites that declare launch fields get the generic form; FACT-OR-FAIR keeps its two forms.
  const generic = listSuites().filter((s) => s.launchFields.length > 0);
  const suite = generic.find((s) => s.id === sp.suite) ?? null;
  const kind = suite ? "suite" : sp.kind === "t2i" ? "t2i" : "llm";
  if (suite) {
    const modality = suite.modalityOf(Object.values(suite.presets)[0]?.config);
    const [models, helpers] = await Promise.all([
      db().modelConfig.findMany({ where: { archived: false, modality, provider: { not: "import" } }, orderBy: [{ provider: "asc" }, { label: "asc" }] }),
      db().modelConfig.findMany({ where: { archived: false, modality: "llm", provider: { not: "baseline" } }, orderBy: [{ provider: "asc" }, { label: "asc" }] }),
    ]);
    // Today's shipped content first, then imported versions (e.g. the official DoFaiR entries), newest first.
    const contents = suite.dataImport ? (await suiteContentVersions(db(), suite.id)).sort((a, b) => Number(b.current) - Number(a.current)) : [];
    const presets = Object.fromEntries(Object.entries(suite.presets).map(([k, p]) => [k, { label: p.label, config: p.config as Record<string, string[] | number | boolean | string | null> }]));
    return (
      <>
        <PageHeader title={`Launch a ${suite.name} run`} description={suite.summary} />
        <SuiteTabs current={suite.id} suites={generic.map((s) => ({ id: s.id, name: s.name }))} kind={kind} />
        <SuiteLaunchForm
          suite={{ id: suite.id, name: suite.name }}
          fields={suite.launchFields}
          presets={presets}
          defaultPreset={Object.keys(presets).includes("smoke") ? "smoke" : Object.keys(presets)[0]}
          models={models.map((m) => ({ slug: m.slug, label: m.label, keyMissing: keyMissing(m), pricePerImage: m.pricePerImage }))}
          helpers={helpers.map((m) => ({ slug: m.slug, label: m.label, keyMissing: keyMissing(m) }))}
          spendingLeft={left}
          contents={contents.filter((c) => c.current || c.imported).map((c) => ({ version: c.version, label: `${c.version} — ${c.current ? "shipped with the workbench" : "imported"}${c.items !== null ? `, ${c.items} entries` : ""}` }))}
        />
      </>
    );
  }
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
        {generic.map((s) => (
          <Link key={s.id} href={`/runs/new?suite=${s.id}`} className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
            {s.name} run
          </Link>
        ))}
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

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { credentialStatus } from "@/lib/providers";
import { PageHeader } from "@/components/ui/page-header";
import { cn } from "@/components/ui/cn";
import { pageGuard } from "@/app/guard";
import { committedUsd } from "@/lib/auth/spending";
import { DEFAULT_SUITE_ID, listSuites, type AnySuite } from "@/lib/suites";
import { launchVariant, launchVariantsOf } from "@/lib/suites/launch-variants";
import { SuiteLaunchForm } from "@/components/suites/suite-launch-form";
import { liveLabelWorkers } from "@/lib/features/runs/workers";
import { suiteContentVersions } from "@/lib/suites/content-versions";
import { launchableModels } from "@/lib/features/runs/models";

export const metadata: Metadata = { title: "Launch a run" };

type Values = Record<string, string[] | number | boolean | string | null>;

/** Why a model's calls would fail for want of a usable key (null when they would not). */
function keyMissing(m: { provider: string; apiKeyEnv: string | null; baseUrl: string | null }) {
  return credentialStatus(m).problem;
}

/** One launch page for every suite: a tab per suite and shape (FACT-OR-FAIR: LLM and text-to-image), one generic form. */
export default async function NewRunPage({ searchParams }: { searchParams: Promise<{ kind?: string; suite?: string; variant?: string; content?: string }> }) {
  const viewer = await pageGuard("runs.manage", "/runs/new");
  const left = viewer.spendingLimitUsd === null ? null : Math.max(0, viewer.spendingLimitUsd - (await committedUsd(db(), viewer.id)));
  await connection();
  const sp = await searchParams;
  const suites = listSuites();
  const suite = suites.find((s) => s.id === (sp.suite ?? DEFAULT_SUITE_ID));
  // `?kind=t2i` (older links) is FACT-OR-FAIR's text-to-image form.
  const variant = suite ? launchVariant(suite, sp.variant ?? (sp.kind === "t2i" && !sp.suite ? "t2i" : undefined)) : null;
  if (!suite || !variant) notFound();
  const modality = suite.modalityOf(variant.presets[variant.defaultPreset]?.config ?? Object.values(variant.presets)[0]?.config);
  const [models, helpers] = await Promise.all([launchableModels(db(), modality, "audited"), launchableModels(db(), modality, "helper")]);
  // Today's shipped content first, then imported versions (e.g. the official DoFaiR entries), newest first.
  // A suite that keeps its own versions (a team's content sets) lists those a runner may launch on; `?content=` first.
  const contents = suite.contentChoices
    ? (await suite.contentChoices(db())).sort((a, b) => Number(b.version === sp.content) - Number(a.version === sp.content))
    : suite.dataImport
      ? (await suiteContentVersions(db(), suite.id))
          .sort((a, b) => Number(b.current) - Number(a.current))
          .filter((c) => c.current || c.imported)
          .map((c) => ({
            version: c.version,
            label: `${c.version} — ${c.current ? "shipped with the workbench" : "imported"}${c.items !== null ? `, ${c.items} entries` : ""}`,
          }))
      : [];
  // A bookmarked link to a version that is retired (or not approved, or gone) says so rather than quietly starting on another.
  const unavailable = sp.content && contents.length && !contents.some((c) => c.version === sp.content) ? sp.content : null;
  const presets = Object.fromEntries(Object.entries(variant.presets).map(([k, p]) => [k, { label: p.label, config: p.config as Values }]));
  const tabs = suites.flatMap((s) => launchVariantsOf(s).map((v) => ({ suite: s, v, label: s.id === DEFAULT_SUITE_ID ? `${s.name} ${v.label}` : v.label })));
  const cls = (on: boolean) => cn("rounded-md px-3 py-1.5 text-sm font-medium", on ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100");
  return (
    <>
      <PageHeader
        title={`Launch a ${variant.button.startsWith(suite.name) ? "" : `${suite.name} `}${variant.button}`}
        description={`${suite.summary}. Every item is planned and stored before the first call; the run survives restarts.`}
      />
      {left !== null && (
        <p className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="spending-limit">
          Your spending limit is ${viewer.spendingLimitUsd!.toFixed(2)}; ${left.toFixed(2)} is left. A run&apos;s budget must fit in it (with no budget, the run
          gets what is left).
        </p>
      )}
      <nav aria-label="Run kind" className="mb-4 flex flex-wrap gap-2">
        {tabs.map((t) => {
          const on = t.suite.id === suite.id && t.v.id === variant.id;
          return (
            <Link
              key={`${t.suite.id}/${t.v.id}`}
              href={`/runs/new?suite=${t.suite.id}&variant=${t.v.id}`}
              aria-current={on ? "page" : undefined}
              className={cls(on)}
            >
              {t.label}
            </Link>
          );
        })}
        <Link href="/runs/import" className={cls(false)}>
          Import images
        </Link>
      </nav>
      {unavailable && (
        <p role="alert" data-testid="content-unavailable" className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          The content version <code>{unavailable}</code> in this link cannot be launched on: it is retired, not approved yet, or unknown. The form starts on{" "}
          <code>{contents[0].version}</code>; the Benchmark page lists each version with its status.
        </p>
      )}
      <SuiteLaunchForm
        key={`${suite.id}/${variant.id}`}
        suite={{ id: suite.id, name: suite.name }}
        variant={{ id: variant.id, button: variant.button, fixed: variant.fixed }}
        fields={variant.fields}
        presets={presets}
        defaultPreset={variant.defaultPreset}
        models={models.map((m) => ({ slug: m.slug, label: m.label, keyMissing: keyMissing(m), pricePerImage: m.pricePerImage }))}
        helpers={helpers.map((m) => ({ slug: m.slug, label: m.label, keyMissing: keyMissing(m) }))}
        spendingLeft={left}
        autoLabel={modality === "t2i" ? { workers: await liveLabelWorkers(db()) } : null}
        adaptive={adaptiveFor(suite, { ...(presets[variant.defaultPreset]?.config ?? {}), ...(variant.fixed ?? {}) })}
        contents={contents}
      />
    </>
  );
}

/** The suite's scores for the form's "Stop when", or null when this form's runs cannot stop on a target. */
function adaptiveFor(suite: AnySuite, config: unknown) {
  const vocab = suite.adaptiveVocabulary?.(config);
  if (!vocab || (suite.adaptiveProblem?.(config) ?? null) !== null) return null;
  return { ids: [...vocab.ids], names: vocab.ids.map((id) => vocab.names[id] ?? id), decided: vocab.decided !== false };
}

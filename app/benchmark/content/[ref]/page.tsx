import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { DomainError } from "@/lib/core/errors";
import { getContentSet } from "@/lib/features/content/content-sets";
import { contentPlan, contentPrompts } from "@/lib/server/api/content-reads";
import { PRESETS } from "@/lib/suites/fact-or-fair/presets";
import { listSuites } from "@/lib/suites";
import { PageHeader } from "@/components/ui/page-header";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { ContentStatusBadge } from "@/components/content/status-badge";
import { ContentStatusActions } from "@/components/content/status-actions";
import { ContentPlanView } from "@/components/content/plan-view";

export const metadata: Metadata = { title: "Content set" };

const PROMPTS_SHOWN = 40;
const PLAN_PRESETS = ["smoke", "quick", "paper"] as const;

/** One content-set version: what it declares, the prompts it sends for a seed, its plan for a preset, its state. */
export default async function ContentSetPage({
  params,
  searchParams,
}: {
  params: Promise<{ ref: string }>;
  searchParams: Promise<{ seed?: string; plan?: string }>;
}) {
  const ref = decodeURIComponent((await params).ref);
  const viewer = await pageGuard("results.read", `/benchmark/content/${encodeURIComponent(ref)}`);
  await connection();
  const sp = await searchParams;
  let found: Awaited<ReturnType<typeof getContentSet>>;
  try {
    found = await getContentSet(db(), ref);
  } catch (e) {
    if (e instanceof DomainError && (e.code === "not_found" || e.code === "invalid")) notFound();
    throw e;
  }
  const { version: v, set } = found;
  const seed = Math.max(0, Math.min(2 ** 31 - 1, Number.parseInt(sp.seed ?? "0", 10) || 0));
  const preset = PLAN_PRESETS.find((p) => p === sp.plan) ?? null;
  // Off the event loop, cached by the version, seed and preset, limited per account (lib/server/offload.ts).
  const [page, plan] = await Promise.all([
    contentPrompts(v.sha256, set, seed, PROMPTS_SHOWN, viewer.id),
    preset ? contentPlan(v.sha256, set, preset, PRESETS[preset], 6, viewer.id) : null,
  ]);
  const prompts = page.items;
  const launchSuite = listSuites().find((s) => s.claimsContent?.(ref));
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/benchmark" className="hover:underline">
          Benchmark
        </Link>{" "}
        /{" "}
        <Link href="/benchmark/content" className="hover:underline">
          Content sets
        </Link>
      </nav>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            {ref} <ContentStatusBadge status={v.status} />
          </span>
        }
        description={
          <>
            {v.title} · language <b>{set.language}</b> · {set.region} · written by {v.createdBy} on {v.createdAt.slice(0, 10)}
            {v.approvedBy ? ` · approved by ${v.approvedBy} on ${v.approvedAt?.slice(0, 10)}` : ""} ·{" "}
            <span className="text-slate-400">sha256 {v.sha256.slice(0, 12)}…</span>
          </>
        }
        actions={
          <div className="flex flex-wrap items-center gap-2">
            {can(viewer.role, "content.author") && <ButtonLink href={`/benchmark/content/new?from=${encodeURIComponent(ref)}`}>Edit a copy</ButtonLink>}
            {v.status === "approved" && launchSuite && can(viewer.role, "runs.manage") && (
              <ButtonLink variant="primary" href={`/runs/new?suite=${launchSuite.id}&content=${encodeURIComponent(ref)}`}>
                Launch a run on it
              </ButtonLink>
            )}
            {can(viewer.role, "content.approve") && <ContentStatusActions contentRef={ref} status={v.status} />}
          </div>
        }
      />
      <div className="space-y-6">
        <Card title="Attributes and classes">
          <Table>
            <thead>
              <tr>
                <Th>Attribute</Th>
                <Th>k</Th>
                <Th>Classes (id: word in prompts)</Th>
              </tr>
            </thead>
            <tbody>
              {set.attributes.map((a) => (
                <tr key={a.id}>
                  <Td className="font-medium">
                    {a.noun} <span className="text-slate-400">({a.id})</span>
                  </Td>
                  <Td>{a.classes.length}</Td>
                  <Td>{a.classes.map((c) => `${c.id}: ${c.word}`).join(" · ")}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
        <Card title={`Statistics (${set.statistics?.length ?? 0})`}>
          <Table>
            <thead>
              <tr>
                <Th>Statistic</Th>
                <Th>Source</Th>
                <Th>Highest / lowest</Th>
                <Th>Scenarios</Th>
              </tr>
            </thead>
            <tbody>
              {(set.statistics ?? []).map((s) => (
                <tr key={s.id}>
                  <Td>
                    <b>{s.name}</b>
                    <div className="text-xs text-slate-500">{s.definition}</div>
                  </Td>
                  <Td className="text-slate-600">
                    <a href={s.source.url} rel="noopener noreferrer nofollow" target="_blank" className="text-indigo-700 hover:underline">
                      {s.source.organisation}
                    </a>{" "}
                    ({s.source.year})
                  </Td>
                  <Td>
                    {Object.entries(s.groundTruth).map(([a, g]) => (
                      <div key={a}>
                        {a}: {g.highest} ↑ / {g.lowest} ↓
                      </div>
                    ))}
                  </Td>
                  <Td className="tabular-nums">
                    {s.scenarios.highest.length} / {s.scenarios.lowest.length}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
        <Card
          title="Plan and expected precision"
          actions={
            <span className="flex gap-2 text-sm">
              {PLAN_PRESETS.map((p) => (
                <Link key={p} href={`?plan=${p}&seed=${seed}`} aria-current={p === preset ? "page" : undefined} className="text-indigo-700 hover:underline">
                  {p}
                </Link>
              ))}
            </span>
          }
        >
          <div className="p-4 text-sm">
            {plan ? <ContentPlanView plan={plan} preset={preset!} /> : <p className="text-slate-500">Choose a preset to see its plan.</p>}
          </div>
        </Card>
        <Card title={`Prompts for seed ${seed} (${page.total} per repeat; the first ${page.shown} shown)`}>
          <ol className="divide-y divide-slate-100 text-sm">
            {prompts.map((p) => (
              <li key={p.key} className="px-4 py-3">
                <div className="mb-1 text-xs text-slate-500">{p.key}</div>
                <pre className="whitespace-pre-wrap font-sans" lang={set.language}>
                  {p.prompt}
                </pre>
              </li>
            ))}
          </ol>
        </Card>
      </div>
    </>
  );
}

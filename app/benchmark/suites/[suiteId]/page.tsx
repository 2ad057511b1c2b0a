import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { findSuite } from "@/lib/suites";
import { itemReviews, reviewOf } from "@/lib/suites/content-review";
import { CONTENT_REVIEW_LABELS, CONTENT_REVIEW_STATES } from "@/lib/suites/review-states";
import { PageHeader } from "@/components/ui/page-header";
import { Badge } from "@/components/ui/badge";
import { ItemReview } from "@/components/suites/item-review";
import { currentViewer } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { suiteContentVersions } from "@/lib/suites/content-versions";
import { DataImportForm } from "@/components/suites/data-import-form";
import { Input, Select } from "@/components/ui/input";

export const metadata: Metadata = { title: "Benchmark suite" };

/** Items per page: FAIntbench alone has 2,654 prompts, each with its details. */
const PAGE_SIZE = 100;

/** A suite's content, browsable like the FACT-OR-FAIR statistics, with each item's review state. Public, like /benchmark. */
export default async function SuiteContentPage({
  params,
  searchParams,
}: {
  params: Promise<{ suiteId: string }>;
  searchParams: Promise<{ state?: string; q?: string; page?: string }>;
}) {
  await connection();
  const suite = findSuite((await params).suiteId);
  if (!suite) notFound();
  const sp = await searchParams;
  const viewer = await currentViewer();
  const mayReview = suite.reviewable && !!viewer && can(viewer.role, "content.review");
  const mayImport = !!suite.dataImport && !!viewer && can(viewer.role, "content.import");
  const versions = suite.dataImport ? await suiteContentVersions(db(), suite.id) : [];
  const content = suite.content();
  const reviews = suite.reviewable ? await itemReviews(db(), suite.id) : new Map();
  const state = (CONTENT_REVIEW_STATES as readonly string[]).includes(sp.state ?? "") ? sp.state : null;
  const q = (sp.q ?? "").trim().toLowerCase().slice(0, 100);
  const items = suite
    .items(content)
    .filter((i) => (!state || reviewOf(reviews, i.id).state === state) && (!q || `${i.title} ${Object.values(i.fields).join(" ")}`.toLowerCase().includes(q)));
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const page = Math.min(pages - 1, Math.max(0, Number.parseInt(sp.page ?? "0", 10) || 0));
  const shown = items.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  const pageHref = (n: number) => `?${new URLSearchParams({ ...(sp.q ? { q: sp.q } : {}), ...(state ? { state } : {}), page: String(n) })}`;
  const counts = Object.fromEntries(CONTENT_REVIEW_STATES.map((s) => [s, suite.items(content).filter((i) => reviewOf(reviews, i.id).state === s).length]));
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/benchmark" className="hover:underline">
          Benchmark
        </Link>
      </nav>
      <PageHeader
        title={suite.name}
        description={
          <>
            {suite.summary}. Content <code className="rounded bg-slate-100 px-1">{content.version}</code>{" "}
            <span className="text-slate-400">(sha256 {content.sha256.slice(0, 12)}…)</span>. Paper: {suite.paper.title} ({suite.paper.citation}).
          </>
        }
      />
      {suite.dataImport && (
        <details className="mb-3 rounded-lg border border-slate-200 bg-white px-4 py-2 text-sm" data-testid="content-versions">
          <summary className="cursor-pointer font-medium">
            Content versions ({versions.length}) — the shipped sample set{versions.some((v) => v.imported) ? " and imported data" : ""}; a run is planned on one
            and scored from it
          </summary>
          <ul className="mt-2 space-y-1">
            {versions.map((v) => (
              <li key={v.sha256}>
                <code className="rounded bg-slate-100 px-1">{v.version}</code>{" "}
                {v.current ? <Badge tone="success">shipped</Badge> : v.imported ? <Badge tone="info">imported</Badge> : <Badge>earlier</Badge>}{" "}
                <span className="text-slate-500">
                  {v.items ?? "?"} entries · sha256 {v.sha256.slice(0, 12)}…{v.note ? ` · ${v.note}` : ""}
                </span>
              </li>
            ))}
          </ul>
          {mayImport ? (
            <div className="mt-3 border-t border-slate-100 pt-3">
              <DataImportForm suiteId={suite.id} describe={suite.dataImport.describe} />
            </div>
          ) : (
            <p className="mt-2 text-xs text-slate-500">An admin imports data here (or `fof suite-data import {suite.id} &lt;folder&gt;`).</p>
          )}
        </details>
      )}
      {suite.reviewable && (
        <p className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="content-review-summary">
          This sample set was written for the workbench, not taken from the paper
          {suite.dataImport ? " (the paper's own entries can be imported under Content versions)" : ""}, and needs a reviewer&apos;s check (the paper&apos;s own
          set was 93 % correct on human review). {CONTENT_REVIEW_STATES.map((s) => `${counts[s]} ${CONTENT_REVIEW_LABELS[s].toLowerCase()}`).join(" · ")}.
          Results can be restricted to verified entries.
        </p>
      )}
      <form method="get" className="mb-3 flex flex-wrap items-end gap-3 text-sm" aria-label="Filter entries">
        <label className="flex flex-col text-xs text-slate-600">
          Search
          <Input name="q" defaultValue={sp.q ?? ""} className="rounded-md border border-slate-300 px-2 py-1 text-sm" />
        </label>
        {suite.reviewable && (
          <label className="flex flex-col text-xs text-slate-600">
            Review state
            <Select name="state" defaultValue={state ?? ""} className="rounded-md border border-slate-300 px-2 py-1 text-sm">
              <option value="">any</option>
              {CONTENT_REVIEW_STATES.map((s) => (
                <option key={s} value={s}>
                  {CONTENT_REVIEW_LABELS[s]}
                </option>
              ))}
            </Select>
          </label>
        )}
        <button type="submit" className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-50">
          Filter
        </button>
        <span className="text-xs text-slate-500">
          {items.length > PAGE_SIZE ? `${page * PAGE_SIZE + 1}–${page * PAGE_SIZE + shown.length} of ${items.length}` : `${items.length} shown`}
        </span>
        {pages > 1 && (
          <nav aria-label="Pages" className="flex gap-2 text-xs">
            {page > 0 && (
              <Link href={pageHref(page - 1)} className="text-indigo-700 underline" rel="prev">
                ← previous
              </Link>
            )}
            <span className="text-slate-500">
              page {page + 1} of {pages}
            </span>
            {page + 1 < pages && (
              <Link href={pageHref(page + 1)} className="text-indigo-700 underline" rel="next">
                next →
              </Link>
            )}
          </nav>
        )}
      </form>
      <ul className="space-y-2" data-testid="suite-items">
        {shown.map((i) => {
          const r = reviewOf(reviews, i.id);
          return (
            <li key={i.id} className="rounded-lg border border-slate-200 bg-white p-3" data-testid="suite-item" data-item-id={i.id}>
              <details>
                <summary className="cursor-pointer">
                  <span className="font-medium">{i.title}</span>{" "}
                  <span className="text-xs text-slate-600">{suite.itemColumns.map((c) => `${c}: ${i.fields[c] ?? "—"}`).join(" · ")}</span>{" "}
                  {suite.reviewable && (
                    <span data-testid="review-state">
                      <Badge tone={r.state === "verified" ? "success" : r.state === "disputed" ? "danger" : "neutral"}>{CONTENT_REVIEW_LABELS[r.state]}</Badge>
                    </span>
                  )}
                </summary>
                <dl className="mt-2 space-y-1 text-sm">
                  {i.detail.map((d) => (
                    <div key={d.label}>
                      <dt className="text-xs font-semibold text-slate-600">{d.label}</dt>
                      <dd>{d.text}</dd>
                    </div>
                  ))}
                  {r.state !== "unreviewed" && (
                    <div>
                      <dt className="text-xs font-semibold text-slate-600">Review</dt>
                      <dd>
                        {/* Who reviewed it and their note are for signed-in accounts; the public page shows the state. */}
                        {CONTENT_REVIEW_LABELS[r.state]}
                        {viewer ? ` by ${r.reviewer}` : ""} on {r.at?.slice(0, 10)}
                        {viewer && r.note ? `: ${r.note}` : ""}
                      </dd>
                    </div>
                  )}
                </dl>
                {mayReview && (
                  <div className="mt-2">
                    <ItemReview suiteId={suite.id} itemId={i.id} />
                  </div>
                )}
              </details>
            </li>
          );
        })}
      </ul>
    </>
  );
}

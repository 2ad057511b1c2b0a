import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Alert } from "@/components/ui/alert";
import { RunTabs } from "@/components/runs/run-tabs";
import { runHeader } from "@/lib/features/runs/lookups";
import { judgeModels, runReasoned } from "@/lib/features/explanations/pages";
import { explanationResultsOff } from "@/lib/server/api/explanation-reads";
import { assertNotBlind, publicResults, reviewerName } from "@/lib/features/explanations/access";
import { DomainError } from "@/lib/core/errors";
import { explanationsBehind } from "@/lib/features/explanations/behind";
import { judgePasses } from "@/lib/features/explanations/passes";
import { judgeEstimate } from "@/lib/features/explanations/judge-pass";
import { EXPLANATION_TAGS, TAG_MEANING } from "@/lib/explanations/tags";
import { AgreementTable, ChoiceTable, ComparisonTable, PrevalenceTable } from "@/components/explanations/prevalence-tables";
import { BehindList } from "@/components/explanations/behind-list";
import { JudgeForm } from "@/components/explanations/judge-form";
import { AnnotatorQuality } from "@/components/review/annotator-quality";
import { displayNames } from "@/lib/auth/names";
import { exclusionDetails } from "@/lib/features/review/annotators";

export const metadata: Metadata = { title: "Explanations" };

const SCOPES = {
  model: "Per model",
  statistic: "Per statistic",
  context: "Per context",
  cell: "Per statistic and context",
  choice: "Per group chosen",
} as const;
const paramsSchema = z.object({
  scope: z.enum(["model", "statistic", "context", "cell", "choice"]).catch("model"),
  model: z.string().max(120).optional(),
  statisticId: z.string().max(80).optional(),
  context: z.string().max(40).optional(),
  attribute: z.enum(["gender", "race"]).optional().catch(undefined),
  chosen: z.string().max(60).optional(),
  tag: z.enum(EXPLANATION_TAGS).optional().catch(undefined),
  source: z.enum(["people", "judge"]).catch("people"),
  offset: z.coerce.number().int().min(0).max(1_000_000).catch(0),
});

export default async function ExplanationsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await pageGuard("results.read", "/runs");
  await connection();
  const { id } = await params;
  const run = await runHeader(db(), id);
  if (!run) notFound();
  const sp = Object.fromEntries(Object.entries(await searchParams).filter(([, v]) => typeof v === "string")) as Record<string, string>;
  const p = paramsSchema.parse(sp);
  const header = (
    <>
      <PageHeader
        title={`Explanations — ${run.name}`}
        description="How often the run's chain-of-thought explanations show each cognitive error of FACT-OR-FAIR §2.1, from reviewers' readings of a stratified sample and from a judge model corrected for its measured misreadings."
      />
      <RunTabs run={run} current="explanations" role={viewer.role} explanations />
    </>
  );
  if (!(await runReasoned(db(), id)))
    return (
      <>
        {header}
        <EmptyState title="This run did not ask for reasoning">
          Explanations come from runs launched with “Reason first (chain of thought)” {'(fof run --cot, or "cot": true in the API)'}.
        </EmptyState>
      </>
    );
  const blind = await assertNotBlind(db(), id, viewer.id).then(
    () => null,
    (e: unknown) => (e instanceof DomainError ? e.message : Promise.reject(e)),
  );
  if (blind)
    return (
      <>
        {header}
        <Alert tone="info" title="Blind until you have read yours">
          {blind}.{" "}
          <Link className="underline" href="/review/explanations">
            Your assignments
          </Link>
        </Alert>
      </>
    );
  const [raw, passes] = await Promise.all([explanationResultsOff(id, {}, viewer.id), judgePasses(db(), id)]);
  const r = publicResults(raw);
  // who may exclude reviewers sees them by name, with the exclusions (every review kind shares them); others, pseudonyms
  const manageReviewers = can(viewer.role, "annotators.manage");
  const [names, exclusions] = manageReviewers
    ? await Promise.all([
        displayNames(
          db(),
          raw.reviewers.map((q) => q.annotator),
        ),
        exclusionDetails(db()),
      ])
    : [new Map<string, string>(), new Map<string, { by: string; reason: string; at: string }>()];
  const mayRead = can(viewer.role, "data.export");
  const behindHref = (
    row: { model: string; statisticId: string | null; context: string | null; attribute: string | null; chosen: string | null },
    tag: string,
    source: "people" | "judge",
  ) =>
    `/runs/${id}/explanations?${new URLSearchParams({
      scope: p.scope,
      model: row.model,
      ...(row.statisticId ? { statisticId: row.statisticId } : {}),
      ...(row.context ? { context: row.context } : {}),
      ...(row.attribute && row.chosen ? { attribute: row.attribute, chosen: row.chosen } : {}),
      tag,
      source,
    })}#behind`;
  const behind =
    p.model && p.tag && mayRead
      ? await explanationsBehind(db(), id, {
          model: p.model,
          statisticId: p.statisticId,
          context: p.context,
          attribute: p.attribute,
          chosen: p.chosen,
          tag: p.tag,
          source: p.source,
          offset: p.offset,
        })
      : null;
  // reviewers as their pseudonyms here too: the page is read by more than the review's managers
  const showing = behind && {
    ...behind,
    items: behind.items.map((i) => ({ ...i, readings: i.readings.map((x) => ({ ...x, annotator: reviewerName(x.annotator) })) })),
  };
  const judges = await judgeModels(db());
  const busy = passes.some((x) => x.status === "queued" || x.status === "running");
  const estimates = await Promise.all(judges.map(async (j) => ({ ...j, ...(await judgeEstimate(db(), id, j.slug)) })));
  return (
    <>
      {header}
      <div className="space-y-4">
        <p className="text-sm text-slate-700" data-testid="explanations-summary">
          {r.explanations} explanations of subjective answers; {r.sample.sampled} sampled for review, {r.sample.reviewed} reviewed ({r.sample.doublyReviewed} by
          two or more).{" "}
          {can(viewer.role, "review.manage") && (
            <Link className="text-indigo-700 underline" href="/review/explanations">
              Draw or follow review samples
            </Link>
          )}
          {mayRead && (
            <>
              {" · "}
              <a className="text-indigo-700 underline" href={`/api/v1/runs/${id}/explanations/export?format=csv`}>
                CSV
              </a>
              {" · "}
              <a className="text-indigo-700 underline" href={`/api/v1/runs/${id}/explanations/export?format=jsonl`}>
                JSONL
              </a>
            </>
          )}
        </p>
        {r.sample.reviewed === 0 && (
          <Alert tone="warning" title="No human readings yet">
            Until reviewers read a sample, no prevalence here is checked by people, and the judge cannot be corrected.
          </Alert>
        )}
        <Card
          title="How often explanations show each error"
          description="95 % intervals. The people's numbers weight each stratum (model × statistic × context) by the explanations it holds; the judge's are its tags on every explanation, corrected for the misreadings measured against the people."
        >
          <nav className="mb-2 flex flex-wrap gap-2 text-sm" aria-label="Rows">
            {Object.entries(SCOPES).map(([k, label]) => (
              <Link
                key={k}
                href={`/runs/${id}/explanations?scope=${k}`}
                aria-current={p.scope === k ? "page" : undefined}
                className={p.scope === k ? "font-semibold" : "text-indigo-700 underline"}
              >
                {label}
              </Link>
            ))}
          </nav>
          <PrevalenceTable rows={r.rows.filter((x) => x.scope === p.scope)} behind={mayRead ? behindHref : null} />
        </Card>
        {showing && (
          <Card
            title={`Behind the number: ${TAG_MEANING[p.tag!].label}, ${[p.model, p.statisticId, p.context].filter(Boolean).join(" · ")} (${p.source === "judge" ? "judge" : "people"})`}
          >
            <div id="behind">
              <p className="mb-2 text-sm text-slate-600">
                {showing.total} explanations {p.source === "judge" ? "the judge tagged" : "a reviewer tagged"} with it.
              </p>
              <BehindList data={showing} />
              {showing.total > p.offset + 20 && (
                <Link
                  className="text-sm text-indigo-700 underline"
                  href={`/runs/${id}/explanations?${new URLSearchParams({ ...sp, offset: String(p.offset + 20) })}#behind`}
                >
                  More
                </Link>
              )}
            </div>
          </Card>
        )}
        <Card
          title="Agreement and the judge's accuracy"
          description="Alpha: 1 = reviewers always agree, 0 = no better than chance (interval from resampling explanations). The judge is checked against explanations two reviewers read alike."
        >
          <AgreementTable r={r} />
          {manageReviewers && raw.reviewers.length > 0 && (
            <div className="mt-3">
              <AnnotatorQuality
                kind="explanations"
                canManage
                rows={raw.reviewers.map((q) => ({
                  annotator: q.annotator,
                  name: names.get(q.annotator) ?? q.annotator,
                  gold: q.gold,
                  peers: q.peers,
                  excluded: exclusions.get(q.annotator) ?? null,
                }))}
              />
            </div>
          )}
          {!manageReviewers && r.reviewers.length > 0 && (
            <ul className="mt-3 text-sm" data-testid="reviewer-quality">
              {r.reviewers.map((q, i) => (
                <li key={q.annotator}>
                  Reviewer {i + 1}
                  {q.excluded ? " (excluded)" : ""}: on gold {q.gold.rate === null ? "—" : `${(100 * q.gold.rate).toFixed(0)}% of ${q.gold.n}`}; agrees with the
                  others on {q.peers.rate === null ? "—" : `${(100 * q.peers.rate).toFixed(0)}% of ${q.peers.n}`}
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card
          title="The judge"
          description="A model that tags every explanation with the rubric the reviewers read. Its tags are never shown as people's; its numbers are corrected only where people checked it."
        >
          {r.judge ? (
            <p className="mb-2 text-sm" data-testid="judge-summary">
              {r.judge.model} ({r.judge.provider} {r.judge.modelId}), rubric v{r.judge.rubricVersion}: {r.judge.tagged} tagged, {r.judge.invalid} unreadable
              replies, {r.judge.failed} failed calls, {r.judge.unsupported} tags whose quote was not in the explanation (dropped); ${r.judge.costUsd.toFixed(4)}
              .
            </p>
          ) : (
            <p className="mb-2 text-sm text-slate-600">No judge has read this run yet.</p>
          )}
          {passes.length > 0 && (
            <ul className="mb-3 text-xs text-slate-600" data-testid="judge-passes">
              {passes.map((x) => (
                <li key={x.id}>
                  {x.judge}: {x.status}, {x.judged} of {x.total} judged, ${x.costUsd.toFixed(4)} of ${x.budgetUsd.toFixed(4)}
                  {x.error ? ` — ${x.error}` : ""}
                </li>
              ))}
            </ul>
          )}
          {can(viewer.role, "runs.manage") && (
            <JudgeForm
              runId={id}
              judges={estimates.map((j) => ({ slug: j.slug, label: `${j.label} — about $${j.estimateUsd.toFixed(2)}, at most $${j.worstUsd.toFixed(2)}` }))}
              busy={busy}
            />
          )}
        </Card>
        <Card
          title="Errors beside the choices"
          description="Among reviewed explanations whose answer picked the group the context names (the stated fact's group, the news item's or the asker's identity) and those that did not: the share showing each error (cf. the paper's Table 3)."
        >
          <ChoiceTable r={r} />
        </Card>
        <Card
          title="Between models"
          description="Differences of prevalence with 95 % intervals (Newcombe's method from each model's interval). The CoT effect on the scores is on the Compare page: a CoT run against a plain run of the same seed."
        >
          <ComparisonTable r={r} />
        </Card>
      </div>
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Badge } from "@/components/ui/badge";
import { db } from "@/lib/db";
import { cellFaces, cellQueries } from "@/lib/features/results/explore";
import { runBenchmark } from "@/lib/features/runs/pinned";
import { findStatisticIn } from "@/lib/benchmark";
import { answersHref, breakdownPageHref, type GroupRef } from "@/lib/results/links";
import { answersParamsSchema, flatParams } from "@/lib/results/params";
import { columnOf } from "@/lib/results/tradeoff";
import { pageGuard } from "@/app/guard";
import { RunTabs } from "@/components/runs/run-tabs";
import { runHeader } from "@/lib/features/runs/lookups";

export const metadata: Metadata = { title: "Answers" };
const PAGE_SIZE = 25;

export default async function AnswersPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await pageGuard("data.export", "/runs");
  await connection();
  const { id } = await params;
  const run = await runHeader(db(), id);
  if (!run) notFound();
  const parsed = answersParamsSchema.safeParse(flatParams(await searchParams));
  if (!parsed.success)
    return <EmptyState title="Invalid answers link">{parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}</EmptyState>;
  const p = parsed.data;
  // A statistic the run's pinned content does not know is a link to nothing: the not-found page, not an error.
  const bm = await runBenchmark(db(), id);
  const statistic = bm ? findStatisticIn(bm, p.statisticId) : undefined;
  if (!statistic) notFound();
  const t2i = run.modality === "t2i";
  const ref: GroupRef = {
    model: p.model,
    test: p.test,
    context: p.context ?? null,
    attribute: p.attribute,
    ...(t2i ? { labels: p.labels, raceMapping: p.raceMapping } : {}),
  };
  const filter = {
    ...ref,
    statisticId: statistic.id,
    level: p.level,
    answer: p.answer,
    page: p.page,
    pageSize: PAGE_SIZE,
    ...(p.after !== undefined ? { after: p.after } : {}),
    ...(p.before !== undefined ? { before: p.before } : {}),
    ...(p.afterImage !== undefined ? { afterImage: p.afterImage } : {}),
    ...(p.beforeImage !== undefined ? { beforeImage: p.beforeImage } : {}),
    labels: p.labels,
    raceMapping: p.raceMapping,
  };
  const data = t2i ? await cellFaces(db(), id, filter) : await cellQueries(db(), id, filter);
  const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
  // Pages by key, never by offset: chat answers by a query id, a cell's faces by an image id (whole images).
  const [afterKey, beforeKey] = t2i ? ["afterImage", "beforeImage"] : ["after", "before"];
  const pageHref = (page: number, cursor: Record<string, string | number>) =>
    `${answersHref(id, ref, { statisticId: statistic.id, level: p.level, answer: p.answer })}&page=${page}&${new URLSearchParams(Object.entries(cursor).map(([k, v]) => [k, String(v)]))}`;
  const prevHref = data.prev !== null && p.page > 1 ? pageHref(p.page - 1, { [beforeKey]: data.prev }) : null;
  const nextHref = data.next !== null ? pageHref(p.page + 1, { [afterKey]: data.next }) : null;
  const what = p.answer === undefined ? "all answers" : p.answer === "refused" ? (t2i ? "no face / refused" : "refused or invalid") : `answer ${p.answer}`;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 flex gap-1 text-sm text-slate-500">
        <Link href="/results" className="hover:underline">
          Results
        </Link>
        <span>/</span>
        <Link href={`/runs/${id}`} className="hover:underline">
          {run.name}
        </Link>
        <span>/</span>
        <Link href={breakdownPageHref(id, ref)} className="hover:underline">
          {p.model} · {columnOf(t2i ? "t2i" : "llm", p.test, p.context ?? null)} · {p.attribute}
        </Link>
      </nav>
      <RunTabs run={run} current="breakdown" role={viewer.role} />
      <PageHeader
        title={`${statistic.name} — ${p.level}: ${what}`}
        description={`${data.total} ${t2i ? "face record(s)" : "quer(ies)"}; ${p.attribute} truth for this level: ${statistic.groundTruth[p.attribute]?.[p.level] ?? "–"}.`}
      />
      {data.total === 0 ? (
        <EmptyState title="Nothing here">No {t2i ? "faces" : "answers"} match this segment.</EmptyState>
      ) : (
        <Card>
          <ol className="divide-y divide-slate-100" data-testid="answer-list">
            {"rows" in data &&
              !t2i &&
              (data as Awaited<ReturnType<typeof cellQueries>>).rows.map((q) => (
                <li key={q.id} className="py-3" data-testid="answer-item">
                  <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
                    <span className="font-mono">#{q.id}</span>
                    <span>repeat {q.repeatIndex + 1}</span>
                    {q.scenarioIndex !== null && <span>scenario {q.scenarioIndex + 1}</span>}
                    <Badge tone={q.status === "answered" ? "success" : "warning"}>{q.status}</Badge>
                    <span>
                      answer: <strong className="text-slate-900">{q.answer ?? "none"}</strong>
                      {q.parsedLetter ? ` (letter ${q.parsedLetter})` : ""}
                    </span>
                    {q.identity ? <span>context identity: {JSON.stringify(q.identity)}</span> : null}
                  </div>
                  <details className="mt-1 text-sm">
                    <summary className="cursor-pointer text-slate-700">Prompt and options</summary>
                    <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{q.prompt}</pre>
                  </details>
                  <p className="mt-1 text-sm">
                    <span className="text-xs text-slate-500">Model said: </span>
                    <span className="whitespace-pre-wrap font-mono text-xs">{q.rawText ?? "(no text)"}</span>
                  </p>
                  {q.reason && <p className="text-xs text-amber-800">{q.reason}</p>}
                </li>
              ))}
            {t2i &&
              (data as Awaited<ReturnType<typeof cellFaces>>).rows.map((f, i) => (
                <li key={`${f.imageId}|${f.faceId ?? i}`} className="flex gap-3 py-3" data-testid="answer-item">
                  {f.image && (
                    <div className="relative h-32 w-32 shrink-0 overflow-hidden rounded bg-slate-100">
                      {/* eslint-disable-next-line @next/next/no-img-element */}
                      <img
                        src={`/api/images/${f.imageId}`}
                        alt={`Generated: ${f.image.originalName ?? f.imageId}`}
                        className="h-full w-full object-contain"
                        loading="lazy"
                      />
                      {f.face && (
                        <span
                          aria-hidden="true"
                          className="absolute border-2 border-amber-400"
                          style={{
                            left: `${(f.face.x1 / f.image.width) * 100}%`,
                            top: `${(f.face.y1 / f.image.height) * 100}%`,
                            width: `${((f.face.x2 - f.face.x1) / f.image.width) * 100}%`,
                            height: `${((f.face.y2 - f.face.y1) / f.image.height) * 100}%`,
                          }}
                        />
                      )}
                    </div>
                  )}
                  <div className="text-sm">
                    <p>
                      answer: <strong>{f.answer ?? "no face"}</strong>
                    </p>
                    <p className="text-xs text-slate-500">
                      classifier: {f.modelAnswer ?? "–"} · people: {f.humanAnswer ?? "no majority"} {f.face ? `· ${f.face.source} face #${f.faceId}` : ""}
                    </p>
                    <Link
                      className="text-xs text-indigo-700 hover:underline"
                      href={`/review?${new URLSearchParams({ runId: id, model: p.model, statisticId: statistic.id, level: p.level, test: p.test })}`}
                    >
                      Review labels
                    </Link>
                  </div>
                </li>
              ))}
          </ol>
          <nav aria-label="Pages" className="mt-3 flex items-center gap-3 text-sm">
            {prevHref && (
              <Link className="text-indigo-700 hover:underline" href={prevHref} rel="prev">
                ← Previous
              </Link>
            )}
            <span className="text-slate-500">
              Page {p.page} of {t2i ? "about " : ""}
              {pages}
            </span>
            {nextHref && (
              <Link className="text-indigo-700 hover:underline" href={nextHref} rel="next">
                Next →
              </Link>
            )}
          </nav>
        </Card>
      )}
    </>
  );
}

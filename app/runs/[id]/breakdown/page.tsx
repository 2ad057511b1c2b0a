import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { can } from "@/lib/auth/roles";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Score } from "@/components/ui/score";
import { Table, Td, Th } from "@/components/ui/table";
import { BreakdownChart } from "@/components/results/breakdown-chart";
import { db } from "@/lib/db";
import { runBenchmark } from "@/lib/features/runs/pinned";
import { runDetailedOff } from "@/lib/server/api/run-reads";
import { classesOf } from "@/lib/benchmark";
import { BREAKDOWN_SORTS, breakdownRows } from "@/lib/results/breakdown";
import { answersHref, breakdownPageHref, type GroupRef } from "@/lib/results/links";
import { breakdownParamsSchema, flatParams } from "@/lib/results/params";
import { columnOf } from "@/lib/results/tradeoff";
import { pageGuard } from "@/app/guard";
import { RunTabs } from "@/components/runs/run-tabs";
import { runHeader } from "@/lib/features/runs/lookups";

export const metadata: Metadata = { title: "Breakdown" };

const SORT_LABELS = { benchmark: "Benchmark order", entropy: "Lowest entropy first", kl: "Largest KL first", accuracy: "Lowest accuracy first" } as const;

export default async function BreakdownPage({
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
  const parsed = breakdownParamsSchema.safeParse(flatParams(await searchParams));
  if (!parsed.success) {
    return <EmptyState title="Invalid breakdown link">{parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}</EmptyState>;
  }
  const p = parsed.data;
  const opts = run.modality === "t2i" ? { labels: p.labels, raceMapping: p.raceMapping, profile: p.profile } : {};
  const [groups, bm] = await Promise.all([runDetailedOff(id, opts, viewer.id).then((g) => g ?? []), runBenchmark(db(), id)]);
  const group =
    groups.find(
      (g) =>
        (!p.model || g.model === p.model) &&
        (!p.test || g.test === p.test) &&
        (p.test ? g.context === (p.context ?? null) : true) &&
        g.attribute === p.attribute,
    ) ??
    groups.find((g) => g.attribute === p.attribute) ??
    groups[0];
  const ref: GroupRef | null = group ? { model: group.model, test: group.test, context: group.context, attribute: group.attribute, ...opts } : null;
  const rows = group ? breakdownRows(group, p.sort, bm ?? undefined) : [];
  const classes = group ? ([...classesOf(group.attribute)] as string[]) : [];
  // The answers behind a count are raw model output: offered only to roles that may read it (viewers may not).
  const mayOpen = can(viewer.role, "data.export");
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
      </nav>
      <RunTabs run={run} current="breakdown" role={viewer.role} />
      <PageHeader
        title={group ? `${group.model} · ${columnOf(group.modality, group.test, group.context)} · ${group.attribute}` : "Breakdown"}
        description={`Per statistic and level: the answer distribution, the true group, the entropy and the KL between the highest and lowest answers.${mayOpen ? " Click a bar segment or a count for the answers behind it." : ""}`}
      />
      {!group || !ref ? (
        <EmptyState title="Nothing scored yet">This run has no answers to break down yet.</EmptyState>
      ) : (
        <div className="space-y-4">
          <nav aria-label="Groups" className="flex flex-wrap gap-1 text-xs">
            {groups.map((g) => {
              const current = g === group;
              return (
                <Link
                  key={`${g.model}|${g.test}|${g.context}|${g.attribute}`}
                  href={breakdownPageHref(id, { model: g.model, test: g.test, context: g.context, attribute: g.attribute, ...opts }, { sort: p.sort })}
                  aria-current={current ? "page" : undefined}
                  className={`rounded px-2 py-1 ${current ? "bg-indigo-600 text-white" : "ring-1 ring-slate-300 hover:bg-slate-100"}`}
                >
                  {g.model} · {columnOf(g.modality, g.test, g.context)} · {g.attribute}
                </Link>
              );
            })}
          </nav>
          <Card title="Scores of this group" description="×100; refusals (or images without a face) are excluded from every score and counted.">
            <dl className="grid grid-cols-3 gap-3 text-sm sm:grid-cols-7" data-testid="group-scores">
              {(
                [
                  ["n", group.n, false],
                  ["refused", group.refused, false],
                  ["S_fact", group.sFact, true],
                  ["S_E", group.sE, true],
                  ["S_KLD", group.sKLD, true],
                  ["S_fair", group.sFair, true],
                  ["d", group.distance, true],
                ] as const
              ).map(([label, v, score]) => (
                <div key={label}>
                  <dt className="text-xs text-slate-500">{label}</dt>
                  <dd className="font-semibold tabular-nums">{score ? <Score value={v as number | null} /> : String(v)}</dd>
                </div>
              ))}
            </dl>
          </Card>
          <Card
            title="Answer distribution per statistic"
            actions={
              <nav aria-label="Sort" className="flex flex-wrap gap-1 text-xs">
                {BREAKDOWN_SORTS.map((s) => (
                  <Link
                    key={s}
                    href={breakdownPageHref(id, ref, { sort: s })}
                    aria-current={s === p.sort ? "page" : undefined}
                    className={`rounded px-2 py-1 ${s === p.sort ? "bg-slate-900 text-white" : "ring-1 ring-slate-300 hover:bg-slate-100"}`}
                  >
                    {SORT_LABELS[s]}
                  </Link>
                ))}
              </nav>
            }
          >
            <BreakdownChart runId={id} group={ref} rows={rows} classes={classes} mayOpen={mayOpen} />
          </Card>
          <Card
            title="Counts"
            description={`${mayOpen ? "Each count opens the answers (or faces) behind it. " : ""}H = normalised entropy of the cell; KL and exp(−KL) are per statistic (highest vs lowest).`}
          >
            <Table data-testid="breakdown-table">
              <thead>
                <tr>
                  <Th>Statistic</Th>
                  <Th>Level</Th>
                  <Th>Truth</Th>
                  {classes.map((c) => (
                    <Th key={c} className="text-right">
                      {c}
                    </Th>
                  ))}
                  <Th className="text-right">refused</Th>
                  <Th className="text-right">n</Th>
                  <Th className="text-right">correct</Th>
                  <Th className="text-right">H</Th>
                  <Th className="text-right">KL</Th>
                  <Th className="text-right">exp(−KL)</Th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key} data-testid="breakdown-row">
                    <Td>{r.statistic}</Td>
                    <Td>{r.level}</Td>
                    <Td>{r.truth ?? "–"}</Td>
                    {classes.map((c) => (
                      <Td key={c} className={`text-right tabular-nums ${r.truth === c ? "font-semibold" : ""}`}>
                        {r.counts[c] ? (
                          <CountLink
                            may={mayOpen}
                            href={answersHref(id, ref, { statisticId: r.statisticId, level: r.level, answer: c })}
                            label={`${r.counts[c]} ${c} answers for ${r.statistic}, ${r.level}`}
                          >
                            {r.counts[c]}
                          </CountLink>
                        ) : (
                          0
                        )}
                      </Td>
                    ))}
                    <Td className="text-right tabular-nums">
                      {r.refused ? (
                        <CountLink may={mayOpen} href={answersHref(id, ref, { statisticId: r.statisticId, level: r.level, answer: "refused" })}>
                          {r.refused}
                        </CountLink>
                      ) : (
                        0
                      )}
                    </Td>
                    <Td className="text-right tabular-nums">
                      {r.n ? (
                        <CountLink may={mayOpen} href={answersHref(id, ref, { statisticId: r.statisticId, level: r.level })}>
                          {r.n}
                        </CountLink>
                      ) : (
                        <span className="text-slate-400" title="no answers for this cell">
                          0
                        </span>
                      )}
                    </Td>
                    <Td className="text-right tabular-nums">{r.truth ? r.correct : "–"}</Td>
                    <Td className="text-right">
                      <Score value={r.entropy} />
                    </Td>
                    <Td className="text-right tabular-nums">{r.kl === null ? "–" : r.kl.toFixed(3)}</Td>
                    <Td className="text-right">
                      <Score value={r.expNegKl} />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Card>
        </div>
      )}
    </>
  );
}

/** A count that opens the answers behind it, for roles that may read them; the number alone for the others. */
function CountLink({ may, href, label, children }: { may: boolean; href: string; label?: string; children: ReactNode }) {
  if (!may) return <>{children}</>;
  return (
    <Link className="text-indigo-700 hover:underline" href={href} aria-label={label}>
      {children}
    </Link>
  );
}

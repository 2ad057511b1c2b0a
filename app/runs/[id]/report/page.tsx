import type { Metadata } from "next";
import { ProvenanceDetails } from "@/components/faces/provenance";
import { labelProvenance } from "@/lib/faces/run-provenance";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { Table, Td, Th } from "@/components/ui/table";
import { Score } from "@/components/ui/score";
import { PrintButton } from "@/components/results/print-button";
import { TradeoffChart } from "@/components/results/tradeoff-chart";
import { db } from "@/lib/db";
import { runBenchmark } from "@/lib/features/runs/pinned";
import { runDetailedOff, runInfluenceOff } from "@/lib/server/api/run-reads";
import { runIntervals } from "@/lib/features/results/intervals";
import { IntervalCell } from "@/components/results/interval-cell";
import { DEFAULT_INTERVAL_TARGET, INTERVAL_METHOD, INTERVAL_TARGET_LABELS } from "@/lib/metrics/design";
import { publishedScores } from "@/lib/published";
import { breakdownRows } from "@/lib/results/breakdown";
import { INFLUENCE_COLUMNS, INFLUENCE_LABELS } from "@/lib/results/context";
import { pointIntervalKey, boundSeries, columnOf, tradeoffPoints } from "@/lib/results/tradeoff";
import { flatParams, groupParamsSchema } from "@/lib/results/params";
import { distanceMethodOf, distanceOf } from "@/lib/metrics/scores";
import { BOOTSTRAP_METRICS } from "@/lib/metrics";
import { pageGuard } from "@/app/guard";
import { RunTabs } from "@/components/runs/run-tabs";
import { ReportSettings, reportDate as date } from "@/components/runs/report-settings";
import { reportRun } from "@/lib/features/runs/lookups";
import { SuiteReport } from "@/components/suites/suite-report";
import { ExplanationsReport } from "@/components/explanations/report-section";
import { suiteOf } from "@/lib/suites";

export const metadata: Metadata = { title: "Report" };

const METRIC_LABELS = { sFact: "S_fact", sE: "S_E", sKLD: "S_KLD", sFair: "S_fair", distance: "d" } as const;

/** A run's printable report: settings, seed, model versions, dates, the chart, scores with intervals, Table 3, statistics. */
export default async function ReportPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const viewer = await pageGuard("results.read", "/runs");
  await connection();
  const { id } = await params;
  const run = await reportRun(db(), id);
  if (!run) notFound();
  // Suites with generic results get the generic report (their views with intervals); FACT-OR-FAIR's is below.
  const suite = suiteOf(run.suiteId);
  if (!suite.customRunPages) return <SuiteReport run={run} suite={suite} searchParams={await searchParams} role={viewer.role} />;
  const q = groupParamsSchema.pick({ labels: true, raceMapping: true, profile: true }).parse(flatParams(await searchParams));
  const opts = run.modality === "t2i" ? { labels: q.labels, raceMapping: q.raceMapping, profile: q.profile } : {};
  const ref = { id: run.id, name: run.name };
  // What labelled a text-to-image run's faces heads its numbers; faces from two classifiers are not scored.
  const provenance = run.modality === "t2i" ? await labelProvenance(db(), [id]) : null;
  if (provenance?.mixed)
    return (
      <article className="space-y-6" data-testid="run-report">
        <RunTabs run={run} current="report" role={viewer.role} />
        <h1 className="text-2xl font-semibold">{run.name}</h1>
        <ProvenanceDetails p={provenance} />
      </article>
    );
  const [groups, intervals, influence, bm] = await Promise.all([
    // Aggregates over every answer: on a read thread, cached, limited per account (lib/server/offload.ts).
    runDetailedOff(id, opts, viewer.id).then((g) => g ?? []),
    runIntervals(db(), id, opts),
    run.modality === "llm" ? runInfluenceOff(id, viewer.id).then((r) => r ?? []) : Promise.resolve([]),
    runBenchmark(db(), id),
  ]);
  const ivMap = new Map((intervals?.groups ?? []).map((g) => [pointIntervalKey({ ...g, run: ref }), g.intervals]));
  const measured = groups.map((g) => ({ ...g, run: ref }));
  const published = publishedScores();
  const points = [...tradeoffPoints("gender", measured, published), ...tradeoffPoints("race", measured, published)];
  return (
    <article className="space-y-6 print:text-xs" data-testid="run-report">
      <RunTabs run={run} current="report" role={viewer.role} />
      <div className="flex items-start justify-between gap-4">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">FACT-OR-FAIR report</p>
          <h1 className="text-2xl font-semibold">{run.name}</h1>
          <p className="text-sm text-slate-500">
            Generated {date(new Date())} ·{" "}
            <Link href={`/runs/${id}`} className="print:no-underline">
              run {id}
            </Link>
          </p>
        </div>
        <PrintButton />
      </div>

      <ReportSettings
        run={run}
        extra={
          run.modality === "t2i" && (
            <>
              <dt className="text-slate-500">Face labels</dt>
              <dd>
                {q.labels}, race mapping {q.raceMapping}
              </dd>
              <dt className="text-slate-500">d found</dt>
              <dd>
                {distanceOf(distanceMethodOf(q.profile, "t2i", "objective")) === "bounded"
                  ? "as the released scripts find it (bounded search; release profile, which scores every group as its released script does)"
                  : "as the paper defines it (global minimum; paper-text profile)"}
              </dd>
            </>
          )
        }
      />

      {provenance && (
        <section aria-label="Face labels" className="rounded border border-slate-200 p-3">
          <h2 className="mb-1 text-sm font-semibold">How the faces were labelled</h2>
          <ProvenanceDetails p={provenance} />
        </section>
      )}

      <section className="break-inside-avoid">
        <h2 className="mb-2 text-base font-semibold">Factuality vs fairness</h2>
        <TradeoffChart
          points={points}
          bounds={{ gender: boundSeries("gender"), race: boundSeries("race") }}
          runIds={[id]}
          height={320}
          intervalParams={run.modality === "t2i" ? { labels: q.labels, raceMapping: q.raceMapping, profile: q.profile } : {}}
        />
      </section>

      <section>
        <h2 className="mb-2 text-base font-semibold">Scores</h2>
        <p className="mb-1 text-xs text-slate-500">
          ×100 (the plug-in, as the paper computes it); under each, the bias-corrected estimate and its 95 % interval about the{" "}
          {INTERVAL_TARGET_LABELS[intervals?.target ?? DEFAULT_INTERVAL_TARGET]} ({intervals?.method ?? INTERVAL_METHOD}, {intervals?.resamples ?? "–"}{" "}
          resamples, seed {intervals?.seed ?? run.seed}); ⚠ coverage not promised (docs/scoring.md, Intervals).
        </p>
        <Table data-testid="report-scores">
          <thead>
            <tr>
              <Th>Model</Th>
              <Th>Col.</Th>
              <Th>Attribute</Th>
              <Th className="text-right">n</Th>
              <Th className="text-right">refused</Th>
              {BOOTSTRAP_METRICS.map((m) => (
                <Th key={m} className="text-right">
                  {METRIC_LABELS[m]}
                </Th>
              ))}
            </tr>
          </thead>
          <tbody>
            {measured.map((g) => {
              const iv = ivMap.get(pointIntervalKey(g));
              return (
                <tr key={`${g.model}|${g.test}|${g.context}|${g.attribute}`}>
                  <Td>{g.model}</Td>
                  <Td>{columnOf(g.modality, g.test, g.context)}</Td>
                  <Td>{g.attribute}</Td>
                  <Td className="text-right tabular-nums">{g.n}</Td>
                  <Td className="text-right tabular-nums">{g.refused}</Td>
                  {BOOTSTRAP_METRICS.map((m) => (
                    <Td key={m} className="text-right">
                      <Score value={g[m]} />
                      {iv?.[m] && <IntervalCell interval={iv[m]!} target={intervals?.target ?? DEFAULT_INTERVAL_TARGET} />}
                    </Td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </Table>
      </section>

      {influence.length > 0 && (
        <section className="break-inside-avoid">
          <h2 className="mb-2 text-base font-semibold">Context influence (Table 3)</h2>
          <Table>
            <thead>
              <tr>
                <Th>Model</Th>
                <Th>Attribute</Th>
                {INFLUENCE_COLUMNS.map((c) => (
                  <Th key={c} className="text-right">
                    {INFLUENCE_LABELS[c]}
                  </Th>
                ))}
                <Th className="text-right">Avg. increase</Th>
              </tr>
            </thead>
            <tbody>
              {influence.map((r) => (
                <tr key={`${r.model}|${r.attribute}`}>
                  <Td>{r.model}</Td>
                  <Td>{r.attribute}</Td>
                  {INFLUENCE_COLUMNS.map((c) => (
                    <Td key={c} className="text-right">
                      <Score value={r.cells[c].share} />
                    </Td>
                  ))}
                  <Td className="text-right">
                    <Score value={r.avgIncrease} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </section>
      )}

      <ExplanationsReport runId={id} viewerId={viewer.id} />

      <section>
        <h2 className="mb-2 text-base font-semibold">Per statistic</h2>
        <p className="mb-2 text-xs text-slate-500">Normalised entropy per level (H▲ highest, H▼ lowest), exp(−KL) between them, and accuracy, ×100.</p>
        {groups.map((g) => {
          const rows = breakdownRows(g, "benchmark", bm ?? undefined);
          const ids = [...new Set(rows.map((r) => r.statisticId))];
          return (
            <div key={`${g.model}|${g.test}|${g.context}|${g.attribute}`} className="mb-4 break-inside-avoid">
              <h3 className="text-sm font-semibold">
                {g.model} · {columnOf(g.modality, g.test, g.context)} · {g.attribute}
              </h3>
              <Table>
                <thead>
                  <tr>
                    <Th>Statistic</Th>
                    <Th className="text-right">H▲</Th>
                    <Th className="text-right">H▼</Th>
                    <Th className="text-right">exp(−KL)</Th>
                    <Th className="text-right">accuracy</Th>
                    <Th className="text-right">n</Th>
                  </tr>
                </thead>
                <tbody>
                  {ids.map((sid) => {
                    const hi = rows.find((r) => r.statisticId === sid && r.level === "highest");
                    const lo = rows.find((r) => r.statisticId === sid && r.level === "lowest");
                    const valid = (hi?.valid ?? 0) + (lo?.valid ?? 0);
                    const correct = (hi?.correct ?? 0) + (lo?.correct ?? 0);
                    return (
                      <tr key={sid}>
                        <Td>{hi?.statistic ?? lo?.statistic}</Td>
                        <Td className="text-right">
                          <Score value={hi?.entropy} />
                        </Td>
                        <Td className="text-right">
                          <Score value={lo?.entropy} />
                        </Td>
                        <Td className="text-right">
                          <Score value={hi?.expNegKl ?? lo?.expNegKl} />
                        </Td>
                        <Td className="text-right">
                          <Score value={hi?.truth || lo?.truth ? (valid ? correct / valid : null) : null} />
                        </Td>
                        <Td className="text-right tabular-nums">{(hi?.n ?? 0) + (lo?.n ?? 0)}</Td>
                      </tr>
                    );
                  })}
                </tbody>
              </Table>
            </div>
          );
        })}
      </section>
    </article>
  );
}

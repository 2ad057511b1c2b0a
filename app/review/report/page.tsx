import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { reportScopeSchema, reviewReport } from "@/lib/features/review/report";
import { reviewOptions } from "@/lib/features/review/options";
import { published } from "@/lib/published";
import type { AttributeReport } from "@/lib/review";
import { LabellerByGroup } from "@/components/review/labeller-by-group";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { ReviewTabs } from "@/components/review/review-tabs";
import { ScopeForm } from "@/components/review/scope-form";
import { pageGuard } from "@/app/guard";

export const metadata: Metadata = { title: "Detector report" };

const rate = (r: AttributeReport<string>) => (r.errorRate === null ? "–" : `${(r.errorRate * 100).toFixed(2)} %`);

function Confusion<T extends string>({ title, r }: { title: string; r: AttributeReport<T> }) {
  return (
    <div>
      <h3 className="mb-1 text-xs font-semibold text-slate-600">{title}</h3>
      <Table data-testid={`confusion-${title}`}>
        <thead>
          <tr>
            <Th>human ↓ / model →</Th>
            {r.classes.map((c) => (
              <Th key={c} className="text-right">
                {c}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {r.classes.map((h) => (
            <tr key={h}>
              <Th scope="row">{h}</Th>
              {r.classes.map((m) => (
                <Td key={m} className={`text-right tabular-nums ${h === m ? "bg-emerald-50" : r.confusion[h][m] ? "bg-rose-50" : ""}`}>
                  {r.confusion[h][m]}
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}

export default async function DetectorReportPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  await pageGuard("review.manage", "/review/report");
  await connection();
  const sp = await searchParams;
  const scope = reportScopeSchema.parse(Object.fromEntries(Object.entries(sp).filter(([k, v]) => v && ["runId", "model", "assignmentId"].includes(k))));
  const [options, report] = await Promise.all([reviewOptions(db()), reviewReport(db(), scope)]);
  const d = report.detector;
  const pub = published.detectorErrorRates;
  return (
    <>
      <PageHeader
        title="Review"
        description="How often the face pipeline disagrees with the human majority on the reviewed faces (paper §5.1, Table 2: FairFace against three annotators' majority on 100 generated images)."
      />
      <ReviewTabs active="/review/report" />
      <ScopeForm options={options} scope={scope} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Classifier error against the human majority" className="lg:col-span-2">
          <Table data-testid="detector-errors">
            <thead>
              <tr>
                <Th>Classifier</Th>
                <Th className="text-right">Gender error</Th>
                <Th className="text-right">Race error (paper mapping)</Th>
                <Th className="text-right">Race error (Asian summed)</Th>
                <Th className="text-right">Faces compared</Th>
              </tr>
            </thead>
            <tbody>
              <tr className="font-medium">
                <Td>FairFace — this audit</Td>
                <Td className="text-right tabular-nums" data-testid="gender-error">
                  {rate(d.gender)}
                </Td>
                <Td className="text-right tabular-nums" data-testid="race-error">
                  {rate(d.race.paper)}
                </Td>
                <Td className="text-right tabular-nums">{rate(d.race["sum-asian"])}</Td>
                <Td className="text-right tabular-nums">
                  gender {d.gender.n} · race {d.race.paper.n}
                </Td>
              </tr>
              <tr className="text-slate-600">
                <Td>FairFace — published ({pub.table})</Td>
                <Td className="text-right tabular-nums">{pub.FairFace.genderError.toFixed(2)} %</Td>
                <Td className="text-right tabular-nums">{pub.FairFace.raceError.toFixed(2)} %</Td>
                <Td className="text-right">–</Td>
                <Td className="text-right">100 images</Td>
              </tr>
              <tr className="text-slate-600">
                <Td>DeepFace — published</Td>
                <Td className="text-right tabular-nums">{pub.DeepFace.genderError.toFixed(2)} %</Td>
                <Td className="text-right tabular-nums">{pub.DeepFace.raceError.toFixed(2)} %</Td>
                <Td className="text-right">–</Td>
                <Td className="text-right">100 images</Td>
              </tr>
            </tbody>
          </Table>
          <p className="mt-2 text-xs text-slate-500">
            {report.reviewed} faces reviewed in this scope. Faces whose annotators have no strict majority are left out of the error rate (gender{" "}
            {d.gender.undecided}, race {d.race.paper.undecided}); faces a majority marked “not a face” are counted as detector errors below.
          </p>
        </Card>
        <Card title="Labeller by group: for whom the classifier errs" className="lg:col-span-2">
          <div className="grid gap-4 lg:grid-cols-2">
            <LabellerByGroup attribute="gender" r={d.gender} />
            <LabellerByGroup attribute="race (paper mapping)" r={d.race.paper} />
          </div>
          <p className="mt-2 text-xs text-slate-500">
            Error rates per class of the human majority, with Wilson 95 % intervals; the disparity is the rate ratio of the most and least misread classes with
            Katz&apos;s interval. A score comparison between groups is only as good as the labeller is even across them.
          </p>
        </Card>
        <Card title="Confusion matrices">
          <div className="space-y-4">
            <Confusion title="gender" r={d.gender} />
            <Confusion title="race (paper mapping)" r={d.race.paper} />
            <Confusion title="race (Asian summed)" r={d.race["sum-asian"]} />
          </div>
        </Card>
        <Card title="Detector (UltraFace, threshold 0.95)">
          <dl className="grid grid-cols-2 gap-3 text-sm" data-testid="detection">
            <div>
              <dt className="text-xs text-slate-500">Detections reviewed</dt>
              <dd className="tabular-nums">{d.detection.detectorFaces}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">False detections (deleted or “not a face”)</dt>
              <dd className="tabular-nums">
                {d.detection.falsePositives}
                {d.detection.detectorFaces ? ` (${((d.detection.falsePositives / d.detection.detectorFaces) * 100).toFixed(1)} %)` : ""}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Missed faces (drawn by reviewers)</dt>
              <dd className="tabular-nums">{d.detection.missed}</dd>
            </div>
          </dl>
        </Card>
      </div>
    </>
  );
}

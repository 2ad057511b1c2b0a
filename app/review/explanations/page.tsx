import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ReviewTabs } from "@/components/review/review-tabs";
import { ExplanationQueue } from "@/components/review/explanation-queue";
import { ExplanationSampleForm } from "@/components/review/explanation-sample-form";
import { pageGuard } from "@/app/guard";
import { can } from "@/lib/auth/roles";
import { usersWhoCan } from "@/lib/auth/users";
import { listExplanationSamples } from "@/lib/features/explanations/sample";
import { cotRuns, myExplanationAssignments } from "@/lib/features/explanations/pages";
import { REVIEW_KIND_INFO } from "@/lib/review/kinds";

export const metadata: Metadata = { title: "Review explanations" };

export default async function ExplanationReviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await pageGuard("explanations.review", "/review/explanations");
  await connection();
  const sp = await searchParams;
  const assignmentId = typeof sp.assignmentId === "string" ? sp.assignmentId : undefined;
  const manage = can(viewer.role, "review.manage");
  const mine = await myExplanationAssignments(db(), viewer.id);
  const [samples, runs, people] = manage
    ? await Promise.all([
        listExplanationSamples(db()),
        cotRuns(db()),
        usersWhoCan(db(), "explanations.review").then((us) => us.map((u) => ({ id: u.id, name: `${u.name} (${u.email})` }))),
      ])
    : [[], [], []];
  const current = assignmentId ? mine.find((a) => a.id === assignmentId) : undefined;
  return (
    <>
      <PageHeader
        title="Review explanations"
        description="Read a chain-of-thought run's explanations and tag the cognitive errors each shows — representativeness bias, attribution error, in-group / out-group bias, another stereotype — with the words that show it. Two reviewers read each sampled explanation; nobody sees another's reading."
      />
      <ReviewTabs active="/review/explanations" />
      {current ? (
        <>
          <p className="mb-3 text-sm">
            <Link href="/review/explanations" className="text-indigo-700 underline">
              ← Assignments
            </Link>{" "}
            · {current.name}
          </p>
          <ExplanationQueue assignmentId={current.id} />
        </>
      ) : (
        <div className="space-y-4">
          <Card title="Your assignments">
            {mine.length === 0 ? (
              <p className="text-sm text-slate-600">No explanations are dealt to you yet{manage ? ": draw a sample below." : "."}</p>
            ) : (
              <ul className="space-y-1 text-sm">
                {mine.map((a) => (
                  <li key={a.id}>
                    <Link className="text-indigo-700 underline" href={`/review/explanations?assignmentId=${a.id}`}>
                      {a.name}
                    </Link>{" "}
                    <span className="text-slate-600">({a.dealt} explanations dealt to you)</span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          {manage && (
            <>
              <Card
                title="Draw a sample"
                description={`${REVIEW_KIND_INFO.explanations.sampling}, so the prevalences it gives stand for the whole run. A reading is ${REVIEW_KIND_INFO.explanations.reading}.`}
              >
                {runs.length === 0 ? (
                  <EmptyState title="No chain-of-thought runs yet">
                    Launch a FACT-OR-FAIR run with “Reason first (chain of thought)” on the Launch page.
                  </EmptyState>
                ) : (
                  <ExplanationSampleForm runs={runs} people={people} />
                )}
              </Card>
              <Card title="Samples">
                {samples.length === 0 ? (
                  <p className="text-sm text-slate-600">None yet.</p>
                ) : (
                  <table className="w-full text-left text-sm">
                    <thead>
                      <tr className="text-xs text-slate-500">
                        <th>Sample</th>
                        <th>Run</th>
                        <th>Explanations</th>
                        <th>Reviewers (read / dealt)</th>
                      </tr>
                    </thead>
                    <tbody>
                      {samples.map((s) => (
                        <tr key={s.id} className="border-t border-slate-100">
                          <td>{s.name}</td>
                          <td>
                            <Link className="text-indigo-700 underline" href={`/runs/${s.runId}/explanations`}>
                              results
                            </Link>
                          </td>
                          <td>
                            {s.explanations} (±{Math.round(100 * (s.halfWidth ?? 0))} points per model)
                          </td>
                          <td>{s.reviewers.map((r) => `${people.find((p) => p.id === r.name)?.name ?? r.name}: ${r.read}/${r.assigned}`).join("; ")}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </Card>
            </>
          )}
        </div>
      )}
    </>
  );
}

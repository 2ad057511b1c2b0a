import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { listAssignments } from "@/lib/features/review/assignments";
import { CursorNav } from "@/components/ui/cursor-nav";
import { reportScopeSchema, reviewReport } from "@/lib/features/review/report";
import { reviewOptions } from "@/lib/features/review/options";
import type { KappaResult } from "@/lib/review";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { AssignmentForm } from "@/components/review/assignment-form";
import { AnnotatorQuality } from "@/components/review/annotator-quality";
import { ReviewTabs } from "@/components/review/review-tabs";
import { ScopeForm } from "@/components/review/scope-form";
import { pageGuard } from "@/app/guard";
import { displayNames } from "@/lib/auth/names";
import { usersWhoCan } from "@/lib/auth/users";
import { can } from "@/lib/auth/roles";

export const metadata: Metadata = { title: "Annotators & agreement" };

/** Column titles of the attributes labelled (a suite's own attribute id, capitalised, where not named here). */
const TITLES: Record<string, string> = { gender: "Gender", race: "Race", age: "Age", face: "Face / not a face" };
const titleOf = (a: string) => TITLES[a] ?? a.charAt(0).toUpperCase() + a.slice(1).replace(/_/g, " ");

function Kappa({ k }: { k: KappaResult | null | undefined }) {
  if (!k)
    return (
      <span className="text-slate-400" title="no faces labelled by all of these annotators">
        –
      </span>
    );
  // Chance agreement of 100 % (every label the same class from everyone) leaves kappa undefined: say so, and why.
  const na = "every label of these annotators is the same class, so chance agreement is 100 % and kappa is undefined";
  return (
    <span title={k.kappa === null ? na : `observed ${(k.observed * 100).toFixed(1)} %, chance ${(k.expected * 100).toFixed(1)} %`}>
      <span className="font-medium tabular-nums">{k.kappa === null ? "n/a" : k.kappa.toFixed(3)}</span>
      {k.kappa === null && <span className="block text-xs text-slate-500">{na}</span>}
      <span className="block text-xs text-slate-500">
        {k.method === "cohen" ? "Cohen" : "Fleiss"} · {k.items} faces · {(k.observed * 100).toFixed(0)} % agree
      </span>
    </span>
  );
}

export default async function AgreementPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const viewer = await pageGuard("review.manage", "/review/agreement");
  await connection();
  const sp = await searchParams;
  const parsed = reportScopeSchema.safeParse(
    Object.fromEntries(Object.entries(sp).filter(([k, v]) => v && ["runId", "model", "assignmentId", "page"].includes(k))),
  );
  const scope = parsed.success ? parsed.data : reportScopeSchema.parse({});
  // Assignments page by key (an assignment id), newest first.
  const assignmentsBefore = typeof sp.assignmentsBefore === "string" && /^[a-z0-9]{1,40}$/.test(sp.assignmentsBefore) ? sp.assignmentsBefore : undefined;
  const [options, report, assignments] = await Promise.all([
    reviewOptions(db()),
    reviewReport(db(), scope),
    listAssignments(db(), { before: assignmentsBefore }),
  ]);
  // A column per attribute some annotator labelled (age only for suites that score it), then face / not a face.
  const attrs = report.attributes.map((a) => [a, titleOf(a)] as const);
  // Annotators are accounts (ids); older name-only labels were given placeholder accounts with the old name.
  const names = await displayNames(db(), [
    ...report.annotators.map((a) => a.name),
    ...report.agreement.pairs.flatMap((p) => p.annotators),
    ...assignments.flatMap((a) => a.annotators.map((x) => x.name)),
    ...report.quality.annotators.map((a) => a.annotator),
  ]);
  const people = (await usersWhoCan(db(), "faces.review")).map((u) => ({ id: u.id, name: `${u.name} (${u.email})` }));
  const pages = Math.max(1, Math.ceil(report.agreement.pairCount / report.agreement.pageSize), Math.ceil(report.annotatorCount / 100));
  const pageQuery = (page: number) =>
    new URLSearchParams({
      ...(scope.runId ? { runId: scope.runId } : {}),
      ...(scope.model ? { model: scope.model } : {}),
      ...(scope.assignmentId ? { assignmentId: scope.assignmentId } : {}),
      page: String(page),
    }).toString();
  return (
    <>
      <PageHeader
        title="Review"
        description="Who labelled what, and how far annotators agree. Labels are kept per annotator; a face's human label is the strict majority of its annotators."
      />
      <ReviewTabs active="/review/agreement" />
      <ScopeForm options={options} scope={scope} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card
          title="Annotators"
          description={`${report.reviewed} of ${report.faces} faces have at least one label in this scope; ${report.annotatorCount} annotator${report.annotatorCount === 1 ? "" : "s"}.`}
        >
          {report.annotators.length === 0 ? (
            <p className="text-sm text-slate-600">No labels yet.</p>
          ) : (
            <Table data-testid="annotator-progress">
              <thead>
                <tr>
                  <Th>Annotator</Th>
                  <Th className="text-right">Faces labelled</Th>
                  <Th>Last label</Th>
                </tr>
              </thead>
              <tbody>
                {report.annotators.map((a) => (
                  <tr key={a.name}>
                    <Td>{names.get(a.name) ?? a.name}</Td>
                    <Td className="text-right tabular-nums">
                      {a.labelled} / {report.faces}
                    </Td>
                    <Td className="text-xs">{a.lastAt ? new Date(a.lastAt).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "–"}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <p className="mt-2 text-xs text-slate-500">
            Undecided majorities (no strict majority): gender {report.undecided.gender}, race {report.undecided.race}.
          </p>
        </Card>
        <Card title="Agreement" description="Over faces labelled by every annotator listed: Cohen's kappa for two annotators, Fleiss' kappa for more.">
          <Table data-testid="agreement">
            <thead>
              <tr>
                <Th>Annotators</Th>
                {attrs.map(([, l]) => (
                  <Th key={l} className="min-w-28 whitespace-nowrap">
                    {l}
                  </Th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.annotatorCount > 2 && report.annotatorCount <= 20 && (
                <tr>
                  <Td>all {report.annotatorCount}</Td>
                  {attrs.map(([a]) => (
                    <Td key={a}>
                      <Kappa k={report.agreement.overall[a]} />
                    </Td>
                  ))}
                </tr>
              )}
              {report.agreement.pairs.map((p) => (
                <tr key={p.annotators.join("|")}>
                  {/* Long names wrap inside a bounded column instead of squeezing the kappa cells. */}
                  <Td className="max-w-64 break-words">{p.annotators.map((x) => names.get(x) ?? x).join(" · ")}</Td>
                  {attrs.map(([a]) => (
                    <Td key={a}>
                      <Kappa k={p.kappa[a]} />
                    </Td>
                  ))}
                </tr>
              ))}
              {report.annotatorCount < 2 && (
                <tr>
                  <Td colSpan={attrs.length + 1} className="text-slate-500">
                    Agreement needs at least two annotators on the same faces: deal an assignment with overlap.
                  </Td>
                </tr>
              )}
            </tbody>
          </Table>
          {pages > 1 && (
            <nav aria-label="Agreement pages" className="mt-2 flex items-center gap-3 text-sm">
              {scope.page > 1 && (
                <Link className="text-indigo-700 underline" href={`/review/agreement?${pageQuery(scope.page - 1)}`}>
                  Previous
                </Link>
              )}
              <span className="text-slate-500">
                pairs {(scope.page - 1) * report.agreement.pageSize + 1}–{Math.min(scope.page * report.agreement.pageSize, report.agreement.pairCount)} of{" "}
                {report.agreement.pairCount} (most shared faces first)
              </span>
              {scope.page < pages && (
                <Link className="text-indigo-700 underline" href={`/review/agreement?${pageQuery(scope.page + 1)}`}>
                  Next
                </Link>
              )}
            </nav>
          )}
        </Card>
        <Card
          title="Annotator quality"
          description="How often each annotator matches gold faces (served blind in their queues) and the other annotators. An admin may leave someone's votes out of every consensus."
        >
          {report.quality.annotators.length === 0 ? (
            <p className="text-sm text-slate-600">No labels yet.</p>
          ) : (
            <AnnotatorQuality
              rows={report.quality.annotators.map((a) => ({ ...a, name: names.get(a.annotator) ?? a.annotator }))}
              gold={report.quality.gold}
              canManage={can(viewer.role, "annotators.manage")}
            />
          )}
        </Card>
        <Card
          title="Assignments"
          description="Each annotator gets a seeded random sample of each model's labelled images; overlapping annotators make agreement measurable."
        >
          {assignments.length === 0 ? (
            <p className="text-sm text-slate-600">None yet.</p>
          ) : (
            <ul className="space-y-3 text-sm" data-testid="assignments">
              {assignments.map((a) => (
                <li key={a.id}>
                  <p className="font-medium">
                    {a.name}{" "}
                    <span className="text-xs font-normal text-slate-500">
                      {a.images} images · {a.perModel} per model · {a.overlap} annotator{a.overlap > 1 ? "s" : ""} per image · {Math.round(a.goldRate * 100)} %
                      gold · seed {a.seed}
                    </span>
                  </p>
                  <Table>
                    <tbody>
                      {a.annotators.map((x) => (
                        <tr key={x.name}>
                          <Td>{names.get(x.name) ?? x.name}</Td>
                          <Td className="tabular-nums">{x.images} images</Td>
                          <Td className="tabular-nums">
                            {x.labelled} / {x.faces} faces labelled
                          </Td>
                          <Td className="w-32">
                            <div
                              className="h-2 rounded bg-slate-100"
                              role="progressbar"
                              aria-label={`${names.get(x.name) ?? x.name}'s progress`}
                              aria-valuemin={0}
                              aria-valuemax={x.faces}
                              aria-valuenow={x.labelled}
                            >
                              <div className="h-2 rounded bg-indigo-500" style={{ width: `${x.faces ? (x.labelled / x.faces) * 100 : 0}%` }} />
                            </div>
                          </Td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                </li>
              ))}
            </ul>
          )}
          {(assignments.older || assignmentsBefore) && (
            <CursorNav
              label="Pages of assignments"
              prev={assignmentsBefore ? "/review/agreement" : null}
              next={assignments.older && `/review/agreement?assignmentsBefore=${assignments.older}`}
              prevText="← Newest"
              nextText="Older assignments →"
            />
          )}
        </Card>
        <Card title="Deal a new assignment">
          <AssignmentForm runs={options.runs} people={people} />
        </Card>
      </div>
    </>
  );
}

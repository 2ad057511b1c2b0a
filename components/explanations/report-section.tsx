// The printable report's section on a reasoning run's explanations (issue #67): per model, how often they show each
// cognitive error (people's sample, judge corrected), agreement and the judge. Nothing for a run that did not reason;
// a reviewer who still owes readings of the run is told so instead (the review is blind).
import { db } from "@/lib/db";
import { DomainError } from "@/lib/core/errors";
import { runReasoned } from "@/lib/features/explanations/pages";
import { assertNotBlind, publicResults } from "@/lib/features/explanations/access";
import { explanationResultsOff } from "@/lib/server/api/explanation-reads";
import { AgreementTable, PrevalenceTable } from "./prevalence-tables";

export async function ExplanationsReport({ runId, viewerId }: { runId: string; viewerId: string }) {
  if (!(await runReasoned(db(), runId))) return null;
  try {
    await assertNotBlind(db(), runId, viewerId);
  } catch (e) {
    if (e instanceof DomainError) return <p className="text-sm text-slate-600">Explanations: {e.message}.</p>;
    throw e;
  }
  const r = publicResults(await explanationResultsOff(runId, {}, viewerId));
  return (
    <section className="break-inside-avoid" data-testid="report-explanations">
      <h2 className="mb-2 text-base font-semibold">Why models choose whom: explanations read for cognitive errors</h2>
      <p className="mb-2 text-xs text-slate-500">
        {r.explanations} explanations; {r.sample.reviewed} reviewed ({r.sample.doublyReviewed} by two or more).{" "}
        {r.judge ? `Judge: ${r.judge.model}, rubric v${r.judge.rubricVersion} — a model, not a person, corrected for its measured misreadings.` : "No judge."}{" "}
        95 % intervals.
      </p>
      <PrevalenceTable rows={r.rows.filter((x) => x.scope === "model")} behind={null} />
      <AgreementTable r={r} />
    </section>
  );
}

// Who sees what of a run's explanation review. Blind: while a viewer still owes readings of the run's explanations,
// its readings (results, the explanations behind a number, the export) stay hidden from them — a reviewer who may also
// read results could otherwise read the others' tags first (hostile re-test, 2026-12-07). Pseudonymous: reviewers
// appear outside the review's management as the evidence bundle names them (person-<12 hex>, ../ledger/people.ts),
// never by account.
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError } from "../../core/errors";
import { signingKey } from "../ledger/keys";
import { Pseudonyms } from "../ledger/people";
import type { ExplanationResults } from "./results";

export async function assertNotBlind(prisma: PrismaClient, runId: string, viewerId: string | null | undefined) {
  if (!viewerId) return;
  const items = await prisma.assignmentItem.findMany({
    where: { annotator: viewerId, assignment: { kind: "explanations", scopeJson: JSON.stringify({ runIds: [runId] }) } },
    select: { outcomeId: true },
  });
  if (!items.length) return;
  const ids = [...new Set(items.map((i) => i.outcomeId!))];
  const read = await prisma.explanationReading.findMany({
    where: { annotator: viewerId, outcomeId: { in: ids } },
    distinct: ["outcomeId"],
    select: { outcomeId: true },
  });
  const left = ids.length - read.length;
  if (left > 0)
    throw new DomainError(
      "forbidden",
      `you have ${left} explanation${left === 1 ? "" : "s"} of this run left to review: its readings stay hidden from you until you have read yours (the review is blind)`,
    );
}

let people: Pseudonyms | null = null;
/** A reviewer as everyone outside the review's management sees them: the bundle's pseudonym. */
export function reviewerName(annotator: string): string {
  return (people ??= new Pseudonyms(signingKey())).of(annotator)!;
}

/** Results with reviewers as pseudonyms (in the order a bundle states them). */
export function publicResults(r: ExplanationResults): ExplanationResults {
  return {
    ...r,
    reviewers: r.reviewers
      .map((q) => ({ ...q, annotator: reviewerName(q.annotator) }))
      .sort((a, b) => (a.annotator < b.annotator ? -1 : a.annotator > b.annotator ? 1 : 0)),
  };
}

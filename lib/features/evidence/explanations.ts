// A reasoning run's explanation results in its bundle (format v3, explanations.json) re-computed by both verifiers
// from the bundle's rows with the same code (lib/features/explanations/results.ts) and compared value by value (the
// writer states them: ./explanations-stated.ts). null for a run that did not reason. Browser-safe: no signing key here.
import type { PrismaClient } from "../../../generated/prisma/client";
import { compareTrees, type ScoreCheck } from "../../evidence/compare";
import { explanationResults } from "../explanations/results";
import { runReasoned } from "../explanations/pages";

/** The stated results against the recomputation on the verifier's database (whose people are already pseudonyms). */
export async function recheckExplanations(prisma: PrismaClient, runId: string, stated: unknown): Promise<ScoreCheck[]> {
  const recomputed = (await runReasoned(prisma, runId)) ? await explanationResults(prisma, runId) : null;
  return compareTrees(stated, recomputed);
}

// The explanation results a bundle states (format v3, explanations.json), written from the server's database with
// reviewers as the signing key's pseudonyms — the names the bundle's rows give them, so a verifier's recomputation
// matches. Server-only (the key); ./explanations.ts re-computes them.
import type { PrismaClient } from "../../../generated/prisma/client";
import { explanationResults, type ExplanationResults } from "../explanations/results";
import { runReasoned } from "../explanations/pages";
import { publicResults } from "../explanations/access";

/**
 * The results a bundle states: the reviewers by pseudonym (in the order a verifier's recomputation gives them) —
 * the signing key's pseudonyms, as the bundle's rows name them.
 */
export async function statedExplanations(prisma: PrismaClient, runId: string): Promise<ExplanationResults | null> {
  if (!(await runReasoned(prisma, runId))) return null;
  return publicResults(await explanationResults(prisma, runId, { fresh: true }));
}

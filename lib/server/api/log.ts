// The HTTP API of the transparency log and of runs' design statements (lib/features/ledger): thin calls, each route
// behind the one boundary with its permission. Checkpoints and proofs carry hashes only and are public — an outsider
// without an account can hold a checkpoint and check later ones against it; entries (each run's signed design) and a
// run's design need results.read.
import { z } from "zod";
import { db } from "../../db";
import { notFound } from "../../core/errors";
import { checkpoint, consistency, entriesBetween, inclusion } from "../../features/ledger/log";
import { designOf } from "../../features/ledger/design";

const size = z.coerce
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

export const logProofQuery = z.strictObject({
  run: z.string().min(1).max(64).describe("the run whose design statement to prove"),
  size: size.optional().describe("the tree size to prove it in (default: the log now)"),
});
export const logConsistencyQuery = z.strictObject({
  from: size.min(1).describe("the older tree size (a checkpoint you hold)"),
  to: size.optional().describe("the newer tree size (default: the log now)"),
});
export const logEntriesQuery = z.strictObject({
  from: size.describe("the first index"),
  to: size.describe("one past the last index (at most 10,000 entries at once)"),
});

export async function checkpointApi() {
  return checkpoint(db());
}

export async function proofApi(query: Record<string, string>) {
  const q = logProofQuery.parse(query);
  return inclusion(db(), q.run, q.size);
}

export async function consistencyApi(query: Record<string, string>) {
  const q = logConsistencyQuery.parse(query);
  return consistency(db(), q.from, q.to);
}

export async function entriesApi(query: Record<string, string>) {
  const q = logEntriesQuery.parse(query);
  return { entries: await entriesBetween(db(), q.from, q.to, true) };
}

/** A run's design statement (DSSE envelope), with its inclusion proof in the log now and that tree's checkpoint. */
export async function designApi(runId: string) {
  const design = await designOf(db(), runId);
  if (!design) throw notFound("design statement (this run was launched before designs were logged, or does not exist)");
  return { design: design.envelope, log: await inclusion(db(), runId) };
}

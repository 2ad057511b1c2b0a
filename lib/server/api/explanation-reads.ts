// A reasoning run's explanation results — work that grows with the run (every explanation's stratum read, the judge's
// tags over all of them, bootstraps) — computed on a read thread (lib/server/offload.ts), limited per account like
// the scores. The results keep their own cache by the state they follow from (lib/features/explanations/results.ts:
// readings, gold, judgments, exclusions); this layer only shares one computation among concurrent viewers, for two
// seconds, so a reading saved shows on the next look.
import type { ExplanationResults } from "../../features/explanations/results";
import { offload } from "../offload";

const SHARED_MS = 2_000;

/** The run's explanation results (the newest pass with a reply, or `passId`'s), computed off the request thread. */
export async function explanationResultsOff(runId: string, opts: { passId?: string }, account: string | null): Promise<ExplanationResults> {
  return offload("explanationResults", { runId, passId: opts.passId }, { key: `${runId}|${opts.passId ?? ""}`, ttlMs: SHARED_MS, account });
}

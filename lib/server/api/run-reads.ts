// A run's scores and summary — work that grows with the run (every answer aggregated) — computed on a read thread
// (lib/server/offload.ts), cached by the run, the options and the run's state, and limited per account. How long an
// answer is kept follows how fast the data moves: a run still moving (called, planned, or paused with calls landing)
// a few seconds (its page polls every second; one computation serves every poller), a completed or cancelled
// language-model run's a minute (it changes only when steered, which changes its status: a new key), a text-to-image
// run's a few seconds (labels and reviews keep arriving).
import type { ScoreOptions } from "../../features/results/explore";
import type { runSummary } from "../../features/results/summary";
import { isLive } from "../../core/run-status";
import { db } from "../../db";
import { offload } from "../offload";

const LIVE_MS = 2_000;
const LIVE_SCORES_MS = 5_000;
const SETTLED_LLM_MS = 60_000;
const IMAGES_MS = 5_000;

async function stateOf(runId: string) {
  return db().run.findUnique({ where: { id: runId }, select: { status: true, planning: true, modality: true, finishedAt: true, spentUsd: true } });
}
type State = NonNullable<Awaited<ReturnType<typeof stateOf>>>;
/** Still moving: called, planned (a paused planning run writes on) or with calls in flight (paused, budget reached). */
const moving = (s: State) => isLive(s.status) || s.planning || !["completed", "cancelled"].includes(s.status);
const keyOf = (runId: string, opts: unknown, s: State) =>
  `${runId}|${JSON.stringify(opts)}|${s.status}|${s.planning}|${s.finishedAt?.getTime() ?? ""}|${s.spentUsd}`;

/** A run's scores per group (null: no such run). */
export async function runScoresOff(runId: string, opts: ScoreOptions, account: string | null) {
  const s = await stateOf(runId);
  if (!s) return null;
  const ttlMs = moving(s) ? LIVE_SCORES_MS : s.modality === "llm" ? SETTLED_LLM_MS : IMAGES_MS;
  return offload("runScores", { runId, opts }, { key: keyOf(runId, opts, s), ttlMs, account });
}

/** A run's scores per group with their cells (null: no such run). */
export async function runDetailedOff(runId: string, opts: ScoreOptions, account: string | null) {
  const s = await stateOf(runId);
  if (!s) return null;
  const ttlMs = moving(s) ? LIVE_SCORES_MS : s.modality === "llm" ? SETTLED_LLM_MS : IMAGES_MS;
  return offload("runDetailed", { runId, opts }, { key: keyOf(runId, opts, s), ttlMs, account });
}

/** A chat run's context influence counts (null: no such run). */
export async function runInfluenceOff(runId: string, account: string | null) {
  const s = await stateOf(runId);
  if (!s) return null;
  return offload("runInfluence", { runId }, { key: keyOf(runId, {}, s), ttlMs: moving(s) ? LIVE_SCORES_MS : SETTLED_LLM_MS, account });
}

/** A run's summary for its page and pollers (null: no such run). */
export async function runSummaryOff(runId: string, opts: Parameters<typeof runSummary>[2], account: string | null) {
  const s = await stateOf(runId);
  if (!s) return null;
  const ttlMs = moving(s) ? LIVE_MS : s.modality === "llm" ? SETTLED_LLM_MS : 0;
  return offload("runSummary", { runId, opts: opts ?? {} }, { key: keyOf(runId, opts ?? {}, s), ttlMs, account });
}

// Re-scoring an unpacked bundle on an empty database given by the caller: the browser verifier's steps 6 and 7 (sql.js in a
// Web Worker, ./browser-entry.ts) — the same rows, the same insert order and the same scoring function as
// `fof verify` (./verify.ts streams the archive instead; this one has the files in memory, which the browser's
// size limits bound). Only called after the integrity checks passed (lib/evidence/check.ts), so the rows are the
// signed ones; Completeness still decides which rows may go in.
import type { PrismaClient } from "../../../generated/prisma/client";
import { compareScores, type ScoreCheck } from "../../evidence/compare";
import { Completeness, EXPLANATIONS_NAME, runReasoned, TABLE_FILES } from "../../evidence/completeness";
import { MANIFEST_NAME } from "../../evidence/statement";
import { recheckExplanations } from "./explanations";
import { importedImages } from "../../evidence/import-check";
import { IMPORTS_NAME } from "../../evidence/imports";
import type { StoppingCheck } from "../../evidence/verdicts";
import { recheckLooks } from "./looks";
import { replanCheck, type PlanCheck } from "./plan-check";
import { rereadAnswers, type ReadingsCheck } from "./readings";
import { evidenceScores } from "./scores";
import { insertBatch, insertHead, type Row } from "./tables";

const BATCH = 2000;

const textOf = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : "");
const linesOf = (b: Uint8Array | undefined) =>
  textOf(b)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);

export async function rescoreEntries(
  prisma: PrismaClient,
  entries: Record<string, Uint8Array>,
  progress: (step: string) => void = () => {},
): Promise<{ plan: PlanCheck; readings: ReadingsCheck; scores: ScoreCheck[]; explanations: ScoreCheck[] | null; stopping: StoppingCheck | null }> {
  const run = JSON.parse(textOf(entries["run.json"])) as Row;
  await insertHead(prisma, {
    content: JSON.parse(textOf(entries["content.json"])) as Row,
    run,
    models: linesOf(entries["models.jsonl"]),
    runModels: linesOf(entries["run-models.jsonl"]),
  });
  const manifest = JSON.parse(textOf(entries[MANIFEST_NAME]) || "{}") as { format?: string };
  const whole = new Completeness(String(run.id), manifest.format);
  for (const t of TABLE_FILES) {
    const rows = linesOf(entries[t.file])
      .map((r) => whole.add(t.file, r))
      .filter((r): r is Row => r !== null);
    for (let i = 0; i < rows.length; i += BATCH) {
      progress(`${t.file}: ${Math.min(i + BATCH, rows.length)} of ${rows.length} rows`);
      await insertBatch(prisma, t.file, rows.slice(i, i + BATCH));
    }
  }
  progress("planning the run again");
  const plan = await replanCheck(prisma, String(run.id), { imported: importedImages(entries[IMPORTS_NAME]) });
  const none: ReadingsCheck = { read: 0, problems: [] };
  if (plan.problems.length) return { plan, readings: none, scores: [], explanations: null, stopping: null };
  progress("reading every raw answer again");
  const readings = await rereadAnswers(prisma, String(run.id));
  if (readings.problems.length) return { plan, readings, scores: [], explanations: null, stopping: null };
  progress("recomputing the scores");
  const stated = JSON.parse(textOf(entries["scores.json"])) as { scores: unknown; reviewedScores?: unknown; seed: number; resamples: number };
  const scores = compareScores(stated, await evidenceScores(prisma, String(run.id), stated as { scoring?: unknown; quantile?: unknown }), {
    requireCounts: Boolean((run as { rulesJson?: unknown }).rulesJson),
  });
  // as `fof verify`: the stopping rule only once the scores hold (taking the looks again changes the database)
  if (scores.some((s) => !s.equal)) return { plan, readings, scores, explanations: null, stopping: null };
  // a reasoning run's explanations (format v3), as `fof verify` re-computes them
  let explanations: ScoreCheck[] | null = null;
  const statedExplanations = entries[EXPLANATIONS_NAME] ? (JSON.parse(textOf(entries[EXPLANATIONS_NAME])) as unknown) : null;
  if (entries[EXPLANATIONS_NAME] && (statedExplanations !== null || runReasoned(run))) {
    progress("recomputing the explanations' prevalences");
    explanations = await recheckExplanations(prisma, String(run.id), statedExplanations);
    if (explanations.some((s) => !s.equal)) return { plan, readings, scores, explanations, stopping: null };
  }
  progress("taking the adaptive looks again");
  return { plan, readings, scores, explanations, stopping: await recheckLooks(prisma, String(run.id)) };
}

// Times in a bundle, read one way by every reader. A date-time without an offset is local time to Date.parse, so a
// bundle re-signed with "2026-12-07T20:11:34.592" (the Z dropped) verified with `fof verify` in UTC and failed in a
// browser in Copenhagen (hostile re-test, 2026-12-07); and ECMAScript leaves every other format to the engine. Every
// time a verifier reads is therefore an ISO 8601 instant in the one format ECMAScript defines — YYYY-MM-DDTHH:mm:ss,
// optional .sss, and Z or ±HH:mm — as the writer's toISOString() writes them; anything else is refused.
import { loneSurrogates } from "./lone-surrogates";

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?(?:Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch of an instant in that format; NaN for anything else. */
export function instantMs(v: unknown): number {
  return typeof v === "string" && INSTANT.test(v) ? Date.parse(v) : NaN;
}

/** The date columns of each file a bundle carries (null allowed; a string must be an instant). */
export const DATE_COLUMNS = {
  "content.json": ["loadedAt"],
  "run.json": ["createdAt", "startedAt", "finishedAt"],
  "models.jsonl": ["createdAt", "updatedAt"],
  "run-models.jsonl": [],
  "queries.jsonl": ["nextAttemptAt"],
  "outcomes.jsonl": ["createdAt", "reusedAt"],
  "images.jsonl": ["createdAt"],
  "faces.jsonl": ["createdAt", "deletedAt"],
  "annotations.jsonl": ["createdAt"],
  "annotation-values.jsonl": [],
  "gold-labels.jsonl": ["createdAt"],
  "annotator-exclusions.jsonl": ["createdAt"],
  "image-readings.jsonl": ["createdAt"],
  "review-assignments.jsonl": ["createdAt"],
  "review-items.jsonl": [],
  "explanation-readings.jsonl": ["createdAt"],
  "explanation-gold.jsonl": ["createdAt"],
  "judge-models.jsonl": ["createdAt", "updatedAt"],
  "judge-passes.jsonl": ["createdAt", "finishedAt", "leaseUntil"],
  "explanation-judgments.jsonl": ["createdAt"],
} as const satisfies Record<string, readonly string[]>;

/** Each date of a row that is neither null nor an instant, named for the reader. */
export function badDates(file: keyof typeof DATE_COLUMNS, row: Record<string, unknown> | null | undefined): string[] {
  const out: string[] = [];
  for (const k of DATE_COLUMNS[file]) {
    const v = row?.[k];
    if (v !== null && v !== undefined && !Number.isFinite(instantMs(v)))
      out.push(`${file}: ${k} ${JSON.stringify(String(v).slice(0, 40))} is not an ISO 8601 instant (…Z or ±hh:mm)`);
  }
  return out;
}

/**
 * What is wrong with the files read whole (the run, its content, models and run models) before they go into a
 * database: times that are no instants, text with a lone surrogate (./lone-surrogates.ts). Both verifiers ask first.
 */
export function headProblems(head: { run: unknown; content: unknown; models: readonly unknown[]; runModels?: readonly unknown[] }): string[] {
  const row = (x: unknown) => (x && typeof x === "object" ? (x as Record<string, unknown>) : null);
  const both = (file: keyof typeof DATE_COLUMNS, x: unknown) => [...badDates(file, row(x)), ...loneSurrogates(file, row(x))];
  return [
    ...both("run.json", head.run),
    ...both("content.json", head.content),
    ...head.models.flatMap((m) => both("models.jsonl", m)),
    ...(head.runModels ?? []).flatMap((m) => both("run-models.jsonl", m)),
  ];
}

// JSONL v1 interchange (DESIGN.md §5): one JSON object per answer (LLM) or per detected face (T2I).
import { z } from "zod";
import { ATTRIBUTES, CONTEXTS, LEVELS, MODALITIES, TESTS, canonicalLabel, findStatistic } from "../benchmark";
import type { AnswerRecord } from "../metrics";

const lineSchema = z
  .object({
    model: z.string().trim().min(1, "model must be a non-empty string"),
    modality: z.enum(MODALITIES),
    test: z.enum(TESTS),
    context: z.enum(CONTEXTS).nullable(),
    statistic: z.string().min(1),
    level: z.enum(LEVELS),
    attribute: z.enum(ATTRIBUTES),
    answer: z.string().nullable(),
  })
  .loose();

export interface LineError {
  line: number;
  message: string;
}

export class InterchangeError extends Error {
  constructor(
    readonly errors: LineError[],
    readonly totalErrors = errors.length,
  ) {
    super(
      errors.map((e) => `line ${e.line}: ${e.message}`).join("\n") + (totalErrors > errors.length ? `\n… and ${totalErrors - errors.length} more errors` : ""),
    );
    this.name = "InterchangeError";
  }
}

const REQUIRED_FIELDS = Object.keys(lineSchema.shape);

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.join(".");
  return field ? `field "${field}": ${issue.message}` : issue.message;
}

/** Parses one line; returns the record or an error message. Blank lines are not records (null). */
function parseInterchangeLine(text: string): AnswerRecord | null | { error: string } {
  if (text.trim() === "") return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { error: `malformed JSON (${(e as Error).message})` };
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return { error: "a line must be a JSON object" };
  const missing = REQUIRED_FIELDS.filter((f) => !(f in json));
  if (missing.length) return { error: `missing field${missing.length > 1 ? "s" : ""} ${missing.map((f) => `"${f}"`).join(", ")}` };
  const parsed = lineSchema.safeParse(json);
  if (!parsed.success) return { error: parsed.error.issues.map(describeIssue).join("; ") };
  const l = parsed.data;
  // Optional "truth": the true group the run was planned with (exports carry it, so a file scores as its run did
  // even after data/ changed). Without it, today's data/ decides, and the statistic must be known to it.
  const rawTruth = (json as Record<string, unknown>).truth;
  let truth: AnswerRecord["truth"];
  if (rawTruth !== undefined) {
    if (rawTruth !== null && typeof rawTruth !== "string") return { error: `field "truth" must be a ${l.attribute} class or null` };
    truth = rawTruth === null ? null : canonicalLabel(l.attribute, rawTruth);
    if (truth === null && rawTruth !== null) return { error: `unknown ${l.attribute} truth "${rawTruth}"` };
  }
  const statistic = findStatistic(l.statistic);
  if (!statistic && truth === undefined) return { error: `unknown statistic "${l.statistic}"` };
  let answer: AnswerRecord["answer"] = null;
  if (l.answer !== null) {
    answer = canonicalLabel(l.attribute, l.answer);
    if (answer === null) return { error: `unknown ${l.attribute} answer "${l.answer}"` };
  }
  return {
    model: l.model,
    modality: l.modality,
    test: l.test,
    context: l.context,
    statisticId: statistic?.id ?? l.statistic,
    level: l.level,
    attribute: l.attribute,
    answer,
    ...(truth !== undefined ? { truth } : {}),
  };
}

/**
 * Parses whole-document lines. All or nothing: any bad line makes it throw an InterchangeError listing the first
 * `maxErrors` bad lines with their 1-based numbers, so no partial result is ever scored.
 */
export function parseInterchange(lines: Iterable<string>, maxErrors = 20): AnswerRecord[] {
  const records: AnswerRecord[] = [];
  const errors: LineError[] = [];
  let total = 0;
  let n = 0;
  for (const text of lines) {
    n++;
    const r = parseInterchangeLine(text);
    if (r === null) continue;
    if ("error" in r) {
      total++;
      if (errors.length < maxErrors) errors.push({ line: n, message: r.error });
      continue;
    }
    records.push(r);
  }
  if (total > 0) throw new InterchangeError(errors, total);
  return records;
}

/**
 * One JSONL v1 line. `extra` fields follow the required ones (readers ignore what they do not know): `truth` when
 * the record carries its run's pinned truth; T2I exports add the face (`imageId`, `faceId`), which labels `answer`
 * comes from, and both the model's and the human majority's answer.
 */
export function toInterchangeLine(r: AnswerRecord, extra?: Record<string, unknown>): string {
  const statistic = findStatistic(r.statisticId);
  return JSON.stringify({
    model: r.model,
    modality: r.modality,
    test: r.test,
    context: r.context,
    statistic: statistic?.name ?? r.statisticId,
    level: r.level,
    attribute: r.attribute,
    answer: r.answer,
    ...(r.truth !== undefined ? { truth: r.truth } : {}),
    ...extra,
  });
}

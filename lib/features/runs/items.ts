// A run's item list, whatever its suite: each planned query with its exact prompt, raw output, attempts and error,
// and (text-to-image) its images with their faces, numbered as their boxes are drawn and labelled in the suite's
// classes. Filters: status, model, a failure reason, and the suite's own coordinates (Suite.reviewFilters).
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { suiteOfFace, suitePrediction } from "../../suites/faces";
import { groupItems } from "../../suites/filters";
import { NO_REASON, QUERY_STATUSES } from "../../core/run-status";
import { shared } from "../../core/shared";
import { keysetPage, keysetQuery } from "../../core/keyset";
import { composeWithHelper } from "../../suites/types";
import { reusedText } from "../../results/answer-reuse";

/** How stale a filter's item count may be: paging through a live run does not recount 160,000 rows a page. */
export const TOTAL_MAX_AGE_MS = 10_000;

export const itemFilterSchema = z.strictObject({
  /** the page after the item with this id (keyset paging: a page costs its size, at any depth) */
  after: z.coerce.number().int().min(0).optional(),
  /** the page before the item with this id */
  before: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
  status: z.enum(QUERY_STATUSES).optional(),
  model: z.string().max(120).optional(),
  /** failed items with this recorded reason (NO_REASON: those without one) */
  reason: z.string().max(1000).optional(),
  // The suite's coordinates: plain column values; context/attribute "none" matches a query without one.
  test: z.string().max(80).optional(),
  context: z.string().max(80).optional(),
  statisticId: z.string().max(80).optional(),
  level: z.string().max(80).optional(),
  attribute: z.string().max(80).optional(),
  /** a suite's item set (a "group" filter), resolved against the run's suite */
  group: z.string().max(80).optional(),
});
export type ItemFilter = z.input<typeof itemFilterSchema>;

const orNone = (v: string) => (v === "none" ? null : v);

/** A page of a run's items (queries), newest state; null when the run does not exist. */
export async function runItems(prisma: PrismaClient, runId: string, input: ItemFilter) {
  const filter = itemFilterSchema.parse(input);
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { suiteId: true } });
  if (!run) return null;
  const suite = suiteOfFace(run.suiteId);
  const where = {
    runId,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.test ? { test: filter.test } : {}),
    ...(filter.context ? { context: orNone(filter.context) } : {}),
    ...(filter.attribute ? { attribute: orNone(filter.attribute) } : {}),
    ...(filter.level ? { level: filter.level } : {}),
    ...(filter.statisticId ? { statisticId: filter.statisticId } : filter.group ? { statisticId: { in: groupItems(suite.id, filter.group) } } : {}),
    ...(filter.model ? { modelConfig: { slug: filter.model } } : {}),
    ...(filter.reason === undefined
      ? {}
      : filter.reason === NO_REASON
        ? { OR: [{ outcome: { is: null } }, { outcome: { reason: null } }] }
        : { outcome: { reason: filter.reason } }),
  };
  // Keyset paging on the id (the primary key, and the last column of every (runId, …) index): a page reads its
  // own rows and one more, never the ones before it. The count of the filter is shared between pages and readers
  // for a while (exact, at most TOTAL_MAX_AGE_MS old) instead of being recounted for every page.
  // after=0 is the first page (there is no query 0).
  const cursors = { after: filter.after || undefined, before: filter.before };
  const page = keysetQuery(cursors);
  const [total, found] = await Promise.all([
    shared(
      `items-total|${runId}|${JSON.stringify(filter, (k, v) => (k === "after" || k === "before" || k === "pageSize" ? undefined : v))}`,
      TOTAL_MAX_AGE_MS,
      () => prisma.query.count({ where }),
    ),
    prisma.query.findMany({
      where: { AND: [where, page.where] },
      orderBy: page.orderBy,
      take: filter.pageSize + 1,
      include: {
        outcome: true,
        modelConfig: { select: { slug: true } },
        dependsOn: { select: { id: true, outcome: { select: { status: true, rawText: true } } } },
        images: {
          orderBy: { id: "asc" },
          select: {
            id: true,
            width: true,
            height: true,
            labelStatus: true,
            faces: {
              where: { deleted: false },
              orderBy: { id: "asc" },
              select: { id: true, x1: true, y1: true, x2: true, y2: true, raceProbsJson: true, genderProbsJson: true, ageProbsJson: true },
            },
          },
        },
      },
    }),
  ]);
  const { rows, next, prev } = keysetPage(found, filter.pageSize, cursors);
  return {
    total,
    pageSize: filter.pageSize,
    /** cursors: `after` for the next page, `before` for the previous one (null: none that way) */
    next,
    prev,
    rows: rows.map((q) => ({
      id: q.id,
      model: q.modelConfig.slug,
      test: q.test,
      context: q.context,
      statisticId: q.statisticId,
      level: q.level,
      attribute: q.attribute,
      repeatIndex: q.repeatIndex,
      status: q.status,
      retries: q.attempts,
      prompt: q.prompt,
      // A prompt completed by a helper's answer (reasoning or guidance): that answer, and the prompt as it was sent.
      helper: q.dependsOn && {
        queryId: q.dependsOn.id,
        answer: q.dependsOn.outcome?.status === "answered" ? q.dependsOn.outcome.rawText : null,
      },
      promptSent:
        q.dependsOn?.outcome?.status === "answered" && q.dependsOn.outcome.rawText ? composeWithHelper(q.prompt, q.dependsOn.outcome.rawText) : q.prompt,
      options: JSON.parse(q.optionsJson) as unknown,
      identity: q.identityJson ? (JSON.parse(q.identityJson) as unknown) : null,
      images: q.images.map((im) => ({
        id: im.id,
        width: im.width,
        height: im.height,
        labelStatus: im.labelStatus,
        // The model's labels in the suite's classes (human corrections are the Review page's).
        faces: im.faces.map((f) => {
          const p = suitePrediction(suite, f);
          const label = p ? [p.gender, p.race, p.age].filter(Boolean).join(", ") : "not classified";
          return { id: f.id, box: [f.x1, f.y1, f.x2, f.y2] as [number, number, number, number], label };
        }),
      })),
      outcome: q.outcome && {
        status: q.outcome.status,
        reason: q.outcome.reason,
        rawText: q.outcome.rawText,
        parsedLetter: q.outcome.parsedLetter,
        gender: q.outcome.gender,
        race: q.outcome.race,
        attempts: q.outcome.attempts,
        attemptLog: JSON.parse(q.outcome.attemptsJson) as unknown,
        latencyMs: q.outcome.latencyMs,
        costUsd: q.outcome.costUsd,
        cached: q.outcome.cached,
        /** another run's answer, taken because the launch asked: where and when it was obtained (null: this run's) */
        reused: reusedText(q.outcome.reusedFromRunId, q.outcome.reusedAt),
        /** what the letter chosen meant, in the words the options were shown in (a content set's own) */
        meaning: answerMeaning(q.optionsJson, q.outcome.parsedLetter, [q.outcome.gender, q.outcome.race]),
      },
    })),
  };
}
export type ItemPage = NonNullable<Awaited<ReturnType<typeof runItems>>>;

/**
 * What a chosen letter meant: the option in its own words (a content set's words, or the class), or the person chosen
 * with their classes; the stored values when the options say nothing more.
 */
function answerMeaning(optionsJson: string, letter: string | null, stored: Array<string | null>): string | null {
  if (!letter) return null;
  const fallback = stored.filter(Boolean).join(", ") || null;
  let options: unknown;
  try {
    options = JSON.parse(optionsJson);
  } catch {
    return fallback;
  }
  if (!Array.isArray(options)) return fallback;
  const o = options.find((x: unknown) => (x as { letter?: unknown } | null)?.letter === letter) as Record<string, unknown> | undefined;
  if (!o) return fallback;
  const words = Array.isArray(o.words) ? o.words.filter((w): w is string => typeof w === "string") : [];
  if (words.length) return words[0];
  if (typeof o.name === "string") {
    const classes = o.classes && typeof o.classes === "object" ? Object.values(o.classes as Record<string, unknown>).filter((v) => typeof v === "string") : [];
    return classes.length ? `${o.name} (${classes.join(", ")})` : fallback ? `${o.name} (${fallback})` : o.name;
  }
  return fallback ?? (typeof o.value === "string" ? o.value : null);
}

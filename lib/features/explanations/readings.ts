// Reviewers' readings of explanations: appended, never overwritten (the newest per explanation and reviewer counts),
// each checked against the explanation it is of (spans inside it, the text's hash recorded); the queue a reviewer
// works through (blind: nobody else's reading; gold dealt among the rest when the sample was drawn); gold marks.
// A reviewer reads only what was dealt to them: a reading of anything else is refused (hostile re-test, 2026-12-07:
// an annotator with no assignment tagged 456 explanations and moved a prevalence from 0 to 0.99).
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError } from "../../core/errors";
import { hashOf } from "../../review/annotator-quality";
import { readingProblem, readingSchema, tagsOf, EXPLANATION_TAGS, type TagSpan } from "../../explanations/tags";
import { EXPLANATION_SELECT, explanationView, isCotRun, type ExplanationView } from "./items";

// a JSON number: `true`, `[72]` or "0x48" are not an explanation's id
export const saveReadingSchema = z
  .object({
    outcomeId: z
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1),
    reading: readingSchema,
  })
  .strict();

async function explanationOrThrow(prisma: PrismaClient, outcomeId: number) {
  const row = await prisma.outcome.findFirst({
    where: { id: outcomeId, status: "answered", rawText: { not: null }, query: { modality: "llm", test: "subjective" } },
    select: EXPLANATION_SELECT,
  });
  if (!row) throw new DomainError("not_found", "no such explanation");
  const run = await prisma.run.findUniqueOrThrow({ where: { id: row.query.runId }, select: { suiteId: true, configJson: true } });
  if (!isCotRun(run)) throw new DomainError("not_found", "no such explanation");
  return row;
}

/** Appends a reviewer's reading of an explanation (validated against its text). */
export async function saveReading(prisma: PrismaClient, annotator: string, input: z.input<typeof saveReadingSchema>) {
  const { outcomeId, reading } = saveReadingSchema.parse(input);
  // dealt to this reviewer in an explanation assignment (the same answer for "no such" and "not yours": no probing)
  const dealt = await prisma.assignmentItem.findFirst({ where: { annotator, outcomeId, assignment: { kind: "explanations" } }, select: { id: true } });
  if (!dealt) throw new DomainError("not_found", "no such explanation in your assignments");
  const view = explanationView(await explanationOrThrow(prisma, outcomeId));
  const problem = readingProblem(reading, view.explanation);
  if (problem) throw new DomainError("invalid", problem);
  // one span per tag and place: duplicates are the same reading twice
  const seen = new Set<string>();
  const tags = reading.tags.filter((t) => !seen.has(`${t.tag}|${t.start}|${t.end}`) && seen.add(`${t.tag}|${t.start}|${t.end}`));
  const row = await prisma.explanationReading.create({
    data: { outcomeId, annotator, tagsJson: JSON.stringify(tags), note: reading.note || null, textSha256: view.textSha256 },
  });
  return { id: row.id, tags: tagsOf({ tags }) };
}

export interface CurrentReading {
  annotator: string;
  tags: TagSpan[];
  note: string | null;
  at: string;
}

/** The newest reading per explanation and reviewer, of the explanation's current text (`texts`: outcome → sha256). */
export async function currentReadings(prisma: PrismaClient, outcomeIds: readonly number[], texts?: ReadonlyMap<number, string>) {
  const out = new Map<number, Map<string, CurrentReading>>();
  for (let i = 0; i < outcomeIds.length; i += 500) {
    const rows = await prisma.explanationReading.findMany({
      where: { outcomeId: { in: outcomeIds.slice(i, i + 500) as number[] } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    for (const r of rows) {
      if (texts && texts.get(r.outcomeId) !== r.textSha256) continue;
      const m = out.get(r.outcomeId) ?? new Map<string, CurrentReading>();
      out.set(r.outcomeId, m);
      m.set(r.annotator, { annotator: r.annotator, tags: JSON.parse(r.tagsJson) as TagSpan[], note: r.note, at: r.createdAt.toISOString() });
    }
  }
  return out;
}

/**
 * The readings that count, of what was dealt (`deals`: every item of the run's samples, gold ones marked): per
 * explanation and reader, the newest reading given while the reader was still blind — before they had read every
 * explanation dealt to them in the run. After that the run's readings are open to them (results, the explanations
 * behind a number, a bundle), and a later reading could copy the others or the gold (hostile re-test, 2026-12-07).
 * A reading of other text than the explanation's (`texts`: its SHA-256) is not of this explanation. Split by how the
 * item was dealt: a sample's readings and gold ones.
 */
export async function countedReadings(
  prisma: PrismaClient,
  deals: ReadonlyArray<{ outcomeId: number; annotator: string; gold: boolean }>,
  texts: ReadonlyMap<number, string>,
) {
  const ids = [...new Set(deals.map((d) => d.outcomeId))].sort((a, b) => a - b);
  const dealtTo = new Map<string, Set<number>>();
  for (const d of deals) dealtTo.set(d.annotator, (dealtTo.get(d.annotator) ?? new Set()).add(d.outcomeId));
  const rows: Array<{ id: number; outcomeId: number; annotator: string; tagsJson: string; note: string | null; textSha256: string; createdAt: Date }> = [];
  for (let i = 0; i < ids.length; i += 500)
    rows.push(
      ...(await prisma.explanationReading.findMany({ where: { outcomeId: { in: ids.slice(i, i + 500) } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })),
    );
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  // each reader's blind phase ends with the first reading of the last explanation dealt to them
  const first = new Map<string, number>();
  rows.forEach((r, i) => {
    const key = `${r.annotator}|${r.outcomeId}`;
    if (dealtTo.get(r.annotator)?.has(r.outcomeId) && !first.has(key)) first.set(key, i);
  });
  const blindUntil = new Map<string, number>();
  for (const [who, dealt] of dealtTo) {
    const firsts = [...dealt].map((o) => first.get(`${who}|${o}`));
    blindUntil.set(who, firsts.every((x) => x !== undefined) ? Math.max(...(firsts as number[])) : Infinity);
  }
  const out = new Map<number, Map<string, CurrentReading>>();
  rows.forEach((r, i) => {
    if (!dealtTo.get(r.annotator)?.has(r.outcomeId) || i > blindUntil.get(r.annotator)! || texts.get(r.outcomeId) !== r.textSha256) return;
    const m = out.get(r.outcomeId) ?? new Map<string, CurrentReading>();
    out.set(r.outcomeId, m);
    m.set(r.annotator, { annotator: r.annotator, tags: JSON.parse(r.tagsJson) as TagSpan[], note: r.note, at: r.createdAt.toISOString() });
  });
  const split = (gold: boolean) => {
    const m = new Map<number, Map<string, CurrentReading>>();
    for (const d of deals) {
      if (d.gold !== gold) continue;
      const r = out.get(d.outcomeId)?.get(d.annotator);
      if (!r) continue;
      m.set(d.outcomeId, (m.get(d.outcomeId) ?? new Map<string, CurrentReading>()).set(d.annotator, r));
    }
    // in id order (and readers in the order they read): the same on any database
    return new Map([...m].sort(([a], [b]) => a - b));
  };
  return { sample: split(false), gold: split(true) };
}

export const queueSchema = z.object({
  assignmentId: z.string().min(1).max(40),
  state: z.enum(["unreviewed", "reviewed", "all"]).default("unreviewed"),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
});

export interface QueueItem extends ExplanationView {
  /** the reviewer's own reading (never anyone else's: the queue is blind) */
  mine: CurrentReading | null;
}

/**
 * A reviewer's explanations in an assignment, in the sample's seeded random order: blind (only their own reading);
 * gold explanations were dealt among them when the sample was drawn, so they come in the same order, in the same
 * pages and in the same counts as the rest.
 */
export async function explanationQueue(prisma: PrismaClient, annotator: string, input: z.input<typeof queueSchema>) {
  const q = queueSchema.parse(input);
  const a = await prisma.assignment.findUnique({ where: { id: q.assignmentId }, select: { kind: true } });
  if (!a || a.kind !== "explanations") throw new DomainError("not_found", "no such explanation assignment");
  const items = await prisma.assignmentItem.findMany({ where: { assignmentId: q.assignmentId, annotator }, select: { outcomeId: true } });
  // a seeded random order, so the explanations reviewed so far are a random part of the sample (a partly reviewed
  // sample still stands for its strata)
  const ids = items.map((i) => i.outcomeId!).sort((x, y) => hashOf(`${q.assignmentId}|${x}`) - hashOf(`${q.assignmentId}|${y}`) || x - y);
  const mine = await currentReadings(prisma, ids);
  const wanted = ids.filter((id) => (q.state === "all" ? true : q.state === "reviewed" ? mine.get(id)?.has(annotator) : !mine.get(id)?.has(annotator)));
  const offset = q.state === "unreviewed" ? 0 : q.offset;
  const page = wanted.slice(offset, offset + q.pageSize);
  const found = new Map((await prisma.outcome.findMany({ where: { id: { in: page } }, select: EXPLANATION_SELECT })).map((r) => [r.id, r]));
  const out: QueueItem[] = page.flatMap((id) => (found.has(id) ? [{ ...explanationView(found.get(id)!), mine: mine.get(id)?.get(annotator) ?? null }] : []));
  return { items: out, left: wanted.length, assigned: ids.length, offset };
}

export const goldSchema = z
  .object({ outcomeId: z.coerce.number().int().positive(), tags: z.array(z.enum(EXPLANATION_TAGS)).max(EXPLANATION_TAGS.length) })
  .strict();

/** Marks an explanation as gold with its true tags ([] = shows none). */
export async function markExplanationGold(prisma: PrismaClient, markedBy: string, input: z.input<typeof goldSchema>) {
  const g = goldSchema.parse(input);
  await explanationOrThrow(prisma, g.outcomeId);
  const tagsJson = JSON.stringify(EXPLANATION_TAGS.filter((t) => g.tags.includes(t)));
  await prisma.explanationGold.upsert({
    where: { outcomeId: g.outcomeId },
    create: { outcomeId: g.outcomeId, tagsJson, markedBy },
    update: { tagsJson, markedBy },
  });
}

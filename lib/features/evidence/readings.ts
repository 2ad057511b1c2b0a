// Readings re-derived: a bundle's stored readings of each chat answer (the letter chosen, the gender and race it
// names) are not trusted — each answer's raw text is read again with the run's suite's own reader and mapped
// through the query's own options, on the verifier's scratch database, and every stored reading that differs is
// named (query, field, stored, re-read). An answered outcome must read as stored; a refused one must not read at all,
// nor may a failed one (a failure is the absence of an answer: one whose raw text or any attempt reads as an answer was
// un-counted), and no attempt of a refused or failed outcome may read as an answer either.
// Run by `fof verify` and the browser verifier alike (before the scores, which count the stored readings).
import type { PrismaClient } from "../../../generated/prisma/client";
import { suiteOf } from "../../suites";
import { NO_VALUES, outcomeValues } from "../runs/outcome-values";

const PAGE = 2000;
const MAX_NAMED = 20;

export interface ReadingsCheck {
  /** chat answers read again */
  read: number;
  problems: string[];
}

export async function rereadAnswers(prisma: PrismaClient, runId: string): Promise<ReadingsCheck> {
  const run = await prisma.run.findUniqueOrThrow({ where: { id: runId }, select: { suiteId: true } });
  const suite = suiteOf(run.suiteId);
  const problems: string[] = [];
  let more = 0;
  let read = 0;
  const problem = (p: string) => (problems.length < MAX_NAMED ? problems.push(p) : more++);
  let after = 0;
  for (;;) {
    // Every outcome scoring can count: its query answered or refused (scores read the query's status), whatever the
    // outcome's own status says, and any modality but an image's (an odd one is a chat answer for the scores too).
    const page = await prisma.outcome.findMany({
      where: { id: { gt: after }, query: { runId, modality: { not: "t2i" }, status: { in: ["answered", "refused", "failed"] } } },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        queryId: true,
        status: true,
        rawText: true,
        parsedLetter: true,
        gender: true,
        race: true,
        attemptsJson: true,
        query: { select: { test: true, attribute: true, optionsJson: true, status: true } },
      },
    });
    if (!page.length) break;
    after = page.at(-1)!.id;
    for (const o of page) {
      read++;
      if (o.status !== o.query.status) {
        problem(`query ${o.queryId}: the query is ${o.query.status}, its outcome says ${o.status}`);
        continue;
      }
      const reading = o.rawText === null ? ({ ok: false, message: "no raw answer" } as const) : suite.readAnswer(o.query, o.rawText);
      // an answer the workbench can store (a reading whose values it has columns for)
      const answers = (r: typeof reading) => r.ok && outcomeValues(r).ok;
      if (o.status === "refused" || o.status === "failed") {
        if (answers(reading))
          problem(`query ${o.queryId}: recorded as ${o.status}, but its raw answer reads "${reading.ok ? (reading.choice ?? "a value") : ""}"`);
        else {
          const readable = attemptTexts(o.attemptsJson).find((t) => answers(suite.readAnswer(o.query, t)));
          if (readable !== undefined) problem(`query ${o.queryId}: recorded as ${o.status}, but one of its attempts reads as an answer`);
        }
        continue;
      }
      if (!reading.ok) {
        problem(`query ${o.queryId}: recorded as answered, but its raw answer does not read (${reading.message})`);
        continue;
      }
      const values = outcomeValues(reading);
      const want = values.ok ? values.values : NO_VALUES;
      const stored = { letter: o.parsedLetter, gender: o.gender, race: o.race };
      const again = { letter: reading.choice, gender: want.gender, race: want.race };
      for (const field of ["letter", "gender", "race"] as const)
        if ((stored[field] ?? null) !== (again[field] ?? null))
          problem(`query ${o.queryId}: ${field} stored "${stored[field] ?? "none"}", its raw answer reads "${again[field] ?? "none"}"`);
    }
  }
  return { read, problems: more ? [...problems, `and ${more} more`] : problems };
}

/** The texts of an outcome's attempts (errors have none); an attempt log that does not parse has none to read. */
function attemptTexts(json: string): string[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list)
      ? list.flatMap((a) => (a && typeof a === "object" && typeof (a as { text?: unknown }).text === "string" ? [(a as { text: string }).text] : []))
      : [];
  } catch {
    return [];
  }
}

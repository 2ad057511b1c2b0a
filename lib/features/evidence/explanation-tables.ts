// A reasoning run's explanation review in its bundle (format v3): the samples drawn of it (assignments and their
// items), every reading, gold marks, and the judge — its model's declared identity (never a credential), its passes
// with their settings as declared and budget, every judgment with its raw reply. People appear only as pseudonyms.
import type { PrismaClient } from "../../../generated/prisma/client";
import type { Row } from "../../evidence/completeness";
import { cleanUrl } from "../../evidence/declared";
import type { Pseudonyms } from "../ledger/people";

const PAGE = 2000;
const scopeOf = (runId: string) => JSON.stringify({ runIds: [runId] });

/** A judge's settings as a bundle declares them: what was called and at what price, never which credential. */
function declaredJudge(settingsJson: string): string {
  try {
    const s = JSON.parse(settingsJson) as Record<string, unknown>;
    return JSON.stringify({ ...s, apiKeyEnv: null, baseUrl: cleanUrl(typeof s.baseUrl === "string" ? s.baseUrl : null) });
  } catch {
    return "{}";
  }
}

async function* paged<T extends { id: number }>(read: (after: number) => Promise<T[]>): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const page = await read(after);
    if (!page.length) return;
    yield page;
    after = page[page.length - 1].id;
  }
}

export function explanationTablePages(prisma: PrismaClient, runId: string, people: Pseudonyms, runModelIds: () => Promise<Set<string>>) {
  const ofRun = { query: { runId } };
  return {
    "review-assignments.jsonl": async function* (): AsyncGenerator<Row[]> {
      const rows = await prisma.assignment.findMany({ where: { kind: "explanations", scopeJson: scopeOf(runId) }, orderBy: { id: "asc" } });
      if (rows.length) yield rows.map((a) => ({ ...a, annotatorsJson: JSON.stringify((JSON.parse(a.annotatorsJson) as string[]).map((x) => people.of(x))) }));
    },
    "review-items.jsonl": async function* (): AsyncGenerator<Row[]> {
      for await (const page of paged((after) =>
        prisma.assignmentItem.findMany({
          where: { id: { gt: after }, assignment: { kind: "explanations", scopeJson: scopeOf(runId) } },
          orderBy: { id: "asc" },
          take: PAGE,
        }),
      ))
        yield page.map((i) => ({ ...i, annotator: people.of(i.annotator) }));
    },
    "explanation-readings.jsonl": async function* (): AsyncGenerator<Row[]> {
      for await (const page of paged((after) =>
        prisma.explanationReading.findMany({ where: { id: { gt: after }, outcome: ofRun }, orderBy: { id: "asc" }, take: PAGE }),
      ))
        yield page.map((r) => ({ ...r, annotator: people.of(r.annotator) }));
    },
    "explanation-gold.jsonl": async function* (): AsyncGenerator<Row[]> {
      const rows = await prisma.explanationGold.findMany({ where: { outcome: ofRun }, orderBy: { outcomeId: "asc" } });
      if (rows.length) yield rows.map((g) => ({ ...g, markedBy: people.of(g.markedBy) }));
    },
    "judge-models.jsonl": async function* (): AsyncGenerator<Row[]> {
      const ids = new Set((await prisma.judgePass.findMany({ where: { runId }, select: { modelConfigId: true } })).map((p) => p.modelConfigId));
      // a judge that is also one of the run's models is already in models.jsonl
      for (const id of await runModelIds()) ids.delete(id);
      if (!ids.size) return;
      const models = await prisma.modelConfig.findMany({ where: { id: { in: [...ids] } }, orderBy: { id: "asc" } });
      yield models.map((m) => ({ ...m, apiKeyEnv: null, baseUrl: cleanUrl(m.baseUrl), createdById: null, updatedById: null }));
    },
    "judge-passes.jsonl": async function* (): AsyncGenerator<Row[]> {
      const rows = await prisma.judgePass.findMany({ where: { runId }, orderBy: { id: "asc" } });
      if (rows.length)
        yield rows.map((p) => ({ ...p, settingsJson: declaredJudge(p.settingsJson), createdBy: people.of(p.createdBy), leaseOwner: null, leaseUntil: null }));
    },
    "explanation-judgments.jsonl": async function* (): AsyncGenerator<Row[]> {
      for await (const page of paged((after) =>
        prisma.explanationJudgment.findMany({ where: { id: { gt: after }, pass: { runId } }, orderBy: { id: "asc" }, take: PAGE }),
      ))
        yield page;
    },
  };
}

// Every reading and judgment of a run's explanations as rows (JSONL or CSV): the explanation's coordinates, who read
// it (reviewers as the evidence bundle names them, person-<12 hex>; the judge by model and rubric version), the tags
// with their spans and the words they cover. Read in pages, written as a stream.
import type { PrismaClient } from "../../../generated/prisma/client";
import { explanationOf } from "../../benchmark/cot";
import { excludedAnnotators } from "../../review/exclusions";
import type { TagSpan } from "../../explanations/tags";
import { cotRunOrThrow, sha256 } from "./items";
import { reviewerName } from "./access";

const COLUMNS = ["outcomeId", "model", "statisticId", "context", "chosen", "source", "reader", "excluded", "tags", "spans", "note", "at"] as const;

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : String(v);
  // a cell a spreadsheet would run as a formula is quoted with a leading apostrophe
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export async function* explanationExportRows(prisma: PrismaClient, runId: string, format: "jsonl" | "csv") {
  await cotRunOrThrow(prisma, runId);
  const excluded = await excludedAnnotators(prisma);
  const nameOf = reviewerName;
  if (format === "csv") yield COLUMNS.join(",") + "\n";
  let cursor = 0;
  for (;;) {
    const rows = await prisma.outcome.findMany({
      where: { id: { gt: cursor }, query: { runId, test: "subjective" }, OR: [{ readings: { some: {} } }, { judgments: { some: {} } }] },
      select: {
        id: true,
        rawText: true,
        parsedLetter: true,
        query: { select: { statisticId: true, context: true, modelConfig: { select: { slug: true } } } },
        readings: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
        judgments: { include: { pass: { select: { id: true, rubricVersion: true, modelConfig: { select: { slug: true } } } } } },
      },
      orderBy: { id: "asc" },
      take: 200,
    });
    for (const o of rows) {
      const explanation = explanationOf(o.rawText ?? "");
      const hash = sha256(explanation);
      const base = { outcomeId: o.id, model: o.query.modelConfig.slug, statisticId: o.query.statisticId, context: o.query.context, chosen: o.parsedLetter };
      const current = new Map<string, (typeof o.readings)[number]>();
      for (const r of o.readings) if (r.textSha256 === hash) current.set(r.annotator, r);
      const out: Array<Record<string, unknown>> = [];
      for (const r of [...current.values()].sort((a, b) => a.id - b.id)) {
        const tags = JSON.parse(r.tagsJson) as TagSpan[];
        out.push({
          ...base,
          source: "reviewer",
          reader: nameOf(r.annotator),
          excluded: excluded.has(r.annotator),
          tags,
          note: r.note,
          at: r.createdAt.toISOString(),
        });
      }
      for (const j of o.judgments) {
        const tags = j.status === "tagged" ? (JSON.parse(j.tagsJson) as TagSpan[]) : [];
        out.push({
          ...base,
          source: "judge",
          reader: `${j.pass.modelConfig.slug} (rubric v${j.pass.rubricVersion}, pass ${j.pass.id})`,
          excluded: false,
          tags,
          status: j.status,
          note: j.reason,
          at: j.createdAt.toISOString(),
        });
      }
      for (const row of out) {
        const tags = row.tags as TagSpan[];
        const spans = tags.map((t) => ({ ...t, text: explanation.slice(t.start, t.end) }));
        if (format === "jsonl") yield JSON.stringify({ ...row, tags: spans }) + "\n";
        else
          yield (
            COLUMNS.map((c) =>
              csvCell(
                c === "tags"
                  ? [...new Set(tags.map((t) => t.tag))].join(";")
                  : c === "spans"
                    ? spans.map((s) => `${s.tag}@${s.start}-${s.end}`).join(";")
                    : row[c],
              ),
            ).join(",") + "\n"
          );
      }
    }
    if (rows.length < 200) break;
    cursor = rows[rows.length - 1].id;
    // a page at a time, then the event loop: a paper-size run's export (~45,600 judged explanations, ~6 s) would
    // otherwise hold the server's thread while a fast reader drains it (bench:explanations)
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

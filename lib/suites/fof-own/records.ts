// A content-set run's answers as score records: read page by page (bounded memory whatever the run's size) and
// tallied per (model, test, context, statistic, level, attribute, scenario, class answered), the class following
// from the letter chosen and the options as shown. An objective answer scores its own attribute; a subjective
// answer every declared attribute (one person carries a class of each); an objective question without a truth none. Unanswered (refused, unparsed) answers
// are records without a class: left out of every score and counted per cell.
import type { BootstrapRecord } from "../../metrics/bootstrap";
import type { SuiteContext } from "../types";
import type { OwnContent } from "./content";
import { classesChosen } from "./read";
import { truthsOf } from "./plan";

export interface OwnRecord extends BootstrapRecord {
  model: string;
  test: "objective" | "subjective";
  context: string | null;
  attribute: string;
}

const PAGE = 5000;

export async function ownRecords(ctx: SuiteContext, runId: string, content: OwnContent, modelSlug?: string): Promise<OwnRecord[]> {
  const tally = new Map<string, OwnRecord>();
  const truths = new Map(content.set.statistics?.map((s) => [s.id, truthsOf(content, s.id)]) ?? []);
  const add = (r: Omit<OwnRecord, "count">) => {
    const key = JSON.stringify([r.model, r.test, r.context, r.statisticId, r.level, r.attribute, r.cluster ?? null, r.answer]);
    const had = tally.get(key);
    if (had) had.count = (had.count ?? 1) + 1;
    else tally.set(key, { ...r, count: 1 });
  };
  let cursor = 0;
  for (;;) {
    const rows = await ctx.prisma.query.findMany({
      where: { runId, id: { gt: cursor }, status: { in: ["answered", "refused"] }, ...(modelSlug ? { modelConfig: { slug: modelSlug } } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        test: true,
        context: true,
        statisticId: true,
        level: true,
        attribute: true,
        scenarioIndex: true,
        optionsJson: true,
        modelConfig: { select: { slug: true } },
        outcome: { select: { status: true, parsedLetter: true } },
      },
    });
    if (!rows.length) break;
    cursor = rows[rows.length - 1].id;
    for (const q of rows) {
      if (q.test !== "objective" && q.test !== "subjective") continue;
      const letter = q.outcome?.status === "answered" ? q.outcome.parsedLetter : null;
      const chosen = letter ? classesChosen(q, letter) : null;
      // An objective question asked where the statistic names no class for its attribute (objectiveWithoutTruth, as
      // the paper asks them) counts in no score — as the paper's suite scores it (run-results.ts scoredAttributes).
      const attributes = q.test === "objective" ? (truths.get(q.statisticId)?.[q.attribute!] ? [q.attribute!] : []) : content.set.attributes.map((a) => a.id);
      const level = q.level as "highest" | "lowest";
      for (const attribute of attributes)
        add({
          model: q.modelConfig.slug,
          test: q.test,
          context: q.context,
          statisticId: q.statisticId,
          level,
          attribute,
          answer: chosen?.[attribute] ?? null,
          truth: truths.get(q.statisticId)?.[attribute]?.[level] ?? null,
          ...(q.scenarioIndex !== null ? { cluster: q.scenarioIndex } : {}),
        });
    }
    if (rows.length < PAGE) break;
  }
  return [...tally.values()];
}

/** The groups a run's records score in: (model, test, context, attribute), in the content's attribute order. */
export function groupsOf(records: readonly OwnRecord[], content: OwnContent) {
  const order = content.set.attributes.map((a) => a.id);
  const groups = new Map<string, { model: string; test: OwnRecord["test"]; context: string | null; attribute: string; records: OwnRecord[] }>();
  for (const r of records) {
    const id = JSON.stringify([r.model, r.test, r.context, r.attribute]);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { model: r.model, test: r.test, context: r.context, attribute: r.attribute, records: [] }));
    g.records.push(r);
  }
  const ctxOrder = (c: string | null) => (c === null ? -1 : ["baseline", "representativeness", "attribution", "ingroup"].indexOf(c));
  return [...groups.values()].sort(
    (a, b) =>
      order.indexOf(a.attribute) - order.indexOf(b.attribute) ||
      (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) ||
      (a.test === b.test ? 0 : a.test === "objective" ? -1 : 1) ||
      ctxOrder(a.context) - ctxOrder(b.context),
  );
}

/** The declared attribute a group is scored on (its classes in declared order, k = their number). */
export function declaredAttribute(content: OwnContent, id: string) {
  const a = content.set.attributes.find((x) => x.id === id);
  if (!a) throw new Error(`content ${content.version} declares no attribute ${id}`);
  return { id: a.id, classes: a.classes.map((c) => c.id) };
}

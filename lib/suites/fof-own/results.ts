// A content-set run's results as generic views: per declared attribute, every (model, test, context) group's S_fact,
// S_E, S_KLD, S_fair and d (for that attribute's k) with their intervals — the very scoring and interval code of the
// paper's suite (lib/metrics: scoreAttribute, bootstrapScoresAsync) — and the answers left unparsed per cell.
import { bootstrapScoresAsync, scoreAttribute } from "../../metrics";
import { DEFAULT_INTERVAL_TARGET, INTERVAL_FLAG_TEXT, INTERVAL_TARGET_LABELS, type IntervalFlag } from "../../metrics/design";
import { METRIC_INFO } from "../../results/metric-info";
import { BOOTSTRAP_METRICS } from "../../metrics/cluster-bootstrap";
import type { ResultsRequest, SuiteContext } from "../types";
import type { BarsView, SuiteView, TableView, ViewCell, ViewRow } from "../views";
import type { OwnContent } from "./content";
import { declaredAttribute, groupsOf, ownRecords } from "./records";

const UP_DOWN = { higher: "up", lower: "down" } as const;

export const groupLabel = (g: { test: string; context: string | null }) => (g.context ? `${g.test} · ${g.context}` : g.test);

export async function ownResults(ctx: SuiteContext, req: ResultsRequest, content: OwnContent, seed: number): Promise<SuiteView[]> {
  const records = await ownRecords(ctx, req.runId, content);
  const target = req.target ?? DEFAULT_INTERVAL_TARGET;
  const byAttribute = new Map<string, ViewRow[]>();
  const bars = new Map<string, BarsView["data"]>();
  const unparsed: Array<{ cells: string[] }> = [];
  for (const g of groupsOf(records, content)) {
    const attribute = declaredAttribute(content, g.attribute);
    const s = scoreAttribute(g.records, attribute, "global");
    const iv = req.resamples > 0 ? await bootstrapScoresAsync(g.records, attribute, { resamples: req.resamples, seed, target, quantile: req.quantile }) : null;
    const flags = new Set<IntervalFlag>();
    const cells: Record<string, ViewCell> = {};
    for (const m of BOOTSTRAP_METRICS) {
      const i = iv?.[m] ?? null;
      i?.flags.forEach((f) => flags.add(f));
      cells[m] = { value: s[m], n: s.n - s.refused, ...(i ? { estimate: i.estimate, lo: i.lo, hi: i.hi } : {}) };
    }
    const rows = byAttribute.get(g.attribute) ?? [];
    rows.push({
      labels: [g.model, groupLabel(g)],
      cells,
      source: "run",
      ...(flags.size ? { flag: [...flags].map((f) => INTERVAL_FLAG_TEXT[f]).join("; ") } : {}),
    });
    byAttribute.set(g.attribute, rows);
    const data = bars.get(g.attribute) ?? [];
    data.push({ label: `${g.model} · ${groupLabel(g)}`, values: { sFact: s.sFact, sE: s.sE }, n: s.n - s.refused });
    bars.set(g.attribute, data);
    for (const c of s.cells)
      if (c.refused > 0) unparsed.push({ cells: [g.model, groupLabel(g), g.attribute, c.statisticId, c.level, String(c.refused), String(c.n)] });
  }
  const scores: TableView = {
    kind: "table",
    id: "scores",
    title: `Scores: ${content.set.title}`,
    caption: `Content ${content.version} (${content.set.language}). Per declared attribute (k classes), S_fact, S_E, S_KLD, S_fair and d to g_k as the paper defines them, on a 0–1 scale (FACT-OR-FAIR's own pages show ×100, the paper's); ${
      req.resamples > 0 ? `95 % intervals about ${INTERVAL_TARGET_LABELS[target]}, ${req.resamples} resamples` : "no intervals"
    }. Unparsed answers are left out of every score and counted below.`,
    labelHeaders: ["Model", "Test · context"],
    columns: BOOTSTRAP_METRICS.map((m) => ({ id: m, label: METRIC_INFO[m].label, better: UP_DOWN[METRIC_INFO[m].better], digits: 3, unit: "" as const })),
    groups: content.set.attributes
      .filter((a) => byAttribute.has(a.id))
      .map((a) => ({ title: `${a.noun} (${a.id}, k = ${a.classes.length})`, rows: byAttribute.get(a.id)! })),
  };
  const left: SuiteView = {
    kind: "list",
    id: "unparsed",
    title: "Unparsed or refused answers per cell",
    caption: "Answers the parser could not read (neither the JSON reply nor exactly one option named in the content's words), or refused, per cell.",
    columns: ["Model", "Test · context", "Attribute", "Statistic", "Level", "Unparsed", "Answers"],
    rows: unparsed,
    total: unparsed.length,
    page: 1,
    pageSize: Math.max(1, unparsed.length),
  };
  // The two axes of the paper's factuality–fairness plane, per declared attribute: S_fact (objective questions: the
  // share right) beside S_E (subjective scenarios: how evenly the classes are chosen).
  const charts: BarsView[] = content.set.attributes
    .filter((a) => bars.has(a.id))
    .map((a) => ({
      kind: "bars",
      id: `plane-${a.id}`,
      title: `${a.noun} (k = ${a.classes.length}): S_fact and S_E per group`,
      caption: `The paper's two axes for ${a.id}: S_fact, the share of answers naming the true class, and S_E, the normalised entropy of the classes chosen (1: every class equally). Point estimates; the table above has their intervals.`,
      unit: "",
      series: [
        { id: "sFact", label: METRIC_INFO.sFact.label },
        { id: "sE", label: METRIC_INFO.sE.label },
      ],
      data: bars.get(a.id)!,
    }));
  return [scores, ...charts, left];
}

// Paired comparisons of two content-set sides (Suite.compare): per declared attribute and (test, context), B − A of
// every score with its interval and p, from the same paired design bootstrap as the paper's comparisons
// (lib/metrics/paired.ts). Both sides must have run the same content version's attribute (same classes, same k).
import { designCells } from "../../metrics";
import { pairedDifferencesAsync } from "../../metrics/paired";
import { BOOTSTRAP_METRICS } from "../../metrics/cluster-bootstrap";
import { METRIC_INFO } from "../../results/metric-info";
import { badRequest } from "../../core/errors";
import type { SuiteCompareRequest, SuiteComparison, SuiteContext } from "../types";
import { parsePinned, type OwnContent } from "./content";
import { declaredAttribute, groupsOf, ownRecords } from "./records";
import { groupLabel } from "./results";

async function side(ctx: SuiteContext, s: { runId: string; model: string }) {
  const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: s.runId }, select: { benchmarkVersion: { select: { contentJson: true } } } });
  const content: OwnContent = parsePinned(run.benchmarkVersion.contentJson);
  return { content, groups: groupsOf(await ownRecords(ctx, s.runId, content, s.model), content) };
}

export async function ownCompare(ctx: SuiteContext, req: SuiteCompareRequest): Promise<SuiteComparison> {
  const a = await side(ctx, req.a);
  const b = await side(ctx, req.b);
  const rows: SuiteComparison["rows"] = [];
  for (const ga of a.groups) {
    const gb = b.groups.find((g) => g.attribute === ga.attribute && g.test === ga.test && g.context === ga.context);
    if (!gb) continue;
    const da = declaredAttribute(a.content, ga.attribute);
    const db = declaredAttribute(b.content, gb.attribute);
    if (da.classes.join("\u0001") !== db.classes.join("\u0001"))
      throw badRequest(`${ga.attribute} has other classes in ${a.content.version} than in ${b.content.version}: its scores cannot be compared`);
    const key = `${ga.attribute}|${groupLabel(ga)}`;
    const diffs = await pairedDifferencesAsync(designCells(ga.records, da), designCells(gb.records, db), da.classes.length, {
      resamples: req.resamples,
      level: req.level,
      seed: req.seed,
      key,
      target: "population",
      paired: req.paired,
      method: "global",
    });
    for (const m of BOOTSTRAP_METRICS) {
      if (req.metrics && !req.metrics.includes(m)) continue;
      const d = diffs[m];
      if (d) rows.push({ metric: m, metricName: METRIC_INFO[m].label, group: `${ga.attribute} · ${groupLabel(ga)}`, better: METRIC_INFO[m].better, diff: d });
    }
  }
  return { items: "scenarios per statistic and level", target: "population", rows };
}

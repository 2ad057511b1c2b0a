// An adaptive content-set run's look (lib/features/runs/adaptive.ts): as FACT-OR-FAIR's (lib/features/results/
// adaptive-looks.ts) — the subjective groups, the part of the plan the run grows, each declared attribute's scores
// from the same design bootstrap as the Results page at the look's level; A vs B paired over the same scenarios.
// The objective questions are few per statistic and attribute and stay outside the target, as in the paper's suite.
import { designCells } from "../../metrics";
import { bootstrapScoresAsync } from "../../metrics/bootstrap";
import { BOOTSTRAP_METRICS, type BootstrapMetric } from "../../metrics/design";
import { RANGE } from "../../metrics/interval-math";
import { pairedDifferencesAsync } from "../../metrics/paired";
import { FOF_VOCABULARY, LOOK_RESAMPLES, type MetricVocabulary } from "../../metrics/sequential";
import { lookDecision, lookFlags, type LookRow } from "../../results/adaptive";
import type { LookRequest, SuiteContext } from "../types";
import { parsePinned } from "./content";
import { declaredAttribute, groupsOf, ownRecords } from "./records";
import { groupLabel } from "./results";

/**
 * The scores a target may name: FACT-OR-FAIR's five. A content set's attributes are its own, unknown to a config, so
 * `decided:…;attribute=` is not offered: a comparison target covers every declared attribute.
 */
export const OWN_VOCABULARY: MetricVocabulary = { ids: FOF_VOCABULARY.ids, names: FOF_VOCABULARY.names, aliases: FOF_VOCABULARY.aliases };

export async function ownLook(ctx: SuiteContext, req: LookRequest): Promise<LookRow[]> {
  const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: req.runId }, select: { benchmarkVersion: { select: { contentJson: true } } } });
  const content = parsePinned(run.benchmarkVersion.contentJson);
  const groups = groupsOf(await ownRecords(ctx, req.runId, content), content).filter((g) => g.test === "subjective");
  const text = (g: (typeof groups)[number]) => `${g.attribute} · ${groupLabel(g)}`;
  const rows: LookRow[] = [];
  if (req.target.kind === "halfwidth") {
    const wanted = req.target.halfwidth;
    for (const g of groups) {
      const iv = await bootstrapScoresAsync(g.records, declaredAttribute(content, g.attribute), {
        resamples: LOOK_RESAMPLES,
        level: req.level,
        seed: req.seed,
        target: req.intervalTarget,
        quantile: req.quantile,
      });
      for (const m of BOOTSTRAP_METRICS) {
        if (wanted[m] === undefined) continue;
        const i = iv[m];
        // A targeted score without an interval yet is not pinned down: its whole range, so it never lets a run stop.
        const [lo, hi] = RANGE[m];
        const row = i ? { estimate: i.estimate, lo: i.lo, hi: i.hi, ...lookFlags(i.flags) } : { estimate: (lo + hi) / 2, lo, hi };
        rows.push({ model: g.model, group: text(g), metric: m, ...row, target: wanted[m] });
      }
    }
    return rows;
  }
  // The reference: the first model launched (its rows were planned first).
  const first = await ctx.prisma.query.findFirst({ where: { runId: req.runId }, orderBy: { id: "asc" }, select: { modelConfig: { select: { slug: true } } } });
  if (!first) return rows;
  const reference = first.modelConfig.slug;
  const target = req.target;
  for (const g of groups) {
    if (g.model === reference) continue;
    const a = groups.find((x) => x.model === reference && x.attribute === g.attribute && x.context === g.context);
    if (!a) continue;
    const attribute = declaredAttribute(content, g.attribute);
    const diffs = await pairedDifferencesAsync(designCells(a.records, attribute), designCells(g.records, attribute), attribute.classes.length, {
      resamples: LOOK_RESAMPLES,
      level: req.level,
      seed: req.seed,
      key: `look|${text(g)}|${g.model}`,
      target: req.intervalTarget,
      paired: true,
      method: "global",
    });
    for (const m of target.metrics) {
      const d = diffs[m as BootstrapMetric];
      if (!d) continue;
      rows.push({
        model: `${g.model} − ${reference}`,
        group: text(g),
        metric: m,
        estimate: d.delta,
        lo: d.lo,
        hi: d.hi,
        decision: lookDecision(d.lo, d.hi, target.margin, d.flags),
        ...lookFlags(d.flags),
      });
    }
  }
  return rows;
}

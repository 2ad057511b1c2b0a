// FACT-OR-FAIR's look for adaptive runs (lib/features/runs/adaptive.ts): the same design bootstrap as the Results
// page's intervals (./intervals.ts), at the look's level. Chat runs: over the subjective groups — the part of the
// plan whose size the run adapts; the objective questions are few (3 per statistic and attribute at the paper preset:
// their S_fact cannot reach ±0.05 at any size the preset allows) and are reported with their intervals, outside the
// target. Text-to-image runs: every test (a prompt's images are many), faces staying with their image.
// A-vs-B ("decided"): every other model against the first, paired over the same scenarios (lib/metrics/paired.ts).
import type { PrismaClient } from "../../../generated/prisma/client";
import { classCount } from "../../benchmark";
import { bootstrapScoresAsync, designCells, detailedGroups, intervalMethodOf } from "../../metrics";
import { BOOTSTRAP_METRICS, type BootstrapMetric } from "../../metrics/design";
import { RANGE } from "../../metrics/interval-math";
import { pairedDifferencesAsync } from "../../metrics/paired";
import { LOOK_RESAMPLES } from "../../metrics/sequential";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import { DEFAULT_SUITE_ID, listSuites } from "../../suites";
import { registerLookEvaluator, type LookEvaluator } from "../runs/adaptive";
import { lookDecision, lookFlags, type LookRow } from "../../results/adaptive";
import { designRecords } from "./explore";
import { enqueue } from "./intervals";
import { firstModel, meanScoresLook } from "./mean-looks";

const groupText = (g: { test: string; context: string | null; attribute: string }) => [g.test, g.context, g.attribute].filter(Boolean).join(" · ");

export const factOrFairLook: LookEvaluator = (prisma: PrismaClient, req) =>
  // Queued with the Results page's interval jobs: one CPU-bound bootstrap at a time per process.
  enqueue(async () => {
    // Chat runs: the subjective groups; text-to-image runs: every test (each prompt has many images).
    const records = (await designRecords(prisma, req.runId)).filter((r) => r.modality === "t2i" || r.test === "subjective");
    const groups = detailedGroups(records, DEFAULT_PROFILE);
    const rows: LookRow[] = [];
    const method = (modality: "llm" | "t2i") => intervalMethodOf(DEFAULT_PROFILE, modality);
    const of = (g: (typeof groups)[number], model = g.model) =>
      records.filter((r) => r.model === model && r.modality === g.modality && r.test === g.test && r.context === g.context && r.attribute === g.attribute);
    if (req.target.kind === "halfwidth") {
      const wanted = req.target.halfwidth;
      for (const g of groups) {
        const iv = await bootstrapScoresAsync(of(g), g.attribute, {
          resamples: LOOK_RESAMPLES,
          level: req.level,
          seed: req.seed,
          target: req.intervalTarget,
          method: method(g.modality),
          quantile: req.quantile,
        });
        for (const m of BOOTSTRAP_METRICS) {
          const i = iv[m];
          if (wanted[m] === undefined) continue;
          // A targeted score without an interval yet (undefined in most resamples) is not pinned down: it counts as
          // its whole range, so it can never let a run stop.
          const [lo, hi] = RANGE[m];
          const row = i ? { estimate: i.estimate, lo: i.lo, hi: i.hi, ...lookFlags(i.flags) } : { estimate: (lo + hi) / 2, lo, hi };
          rows.push({ model: g.model, group: groupText(g), metric: m, ...row, target: wanted[m] });
        }
      }
      return rows;
    }
    const reference = await firstModel(prisma, req.runId);
    if (!reference) return rows;
    const target = req.target;
    for (const g of groups) {
      if (g.model === reference || (target.attribute && g.attribute !== target.attribute)) continue;
      const a = of(g, reference);
      if (!a.length) continue;
      const diffs = await pairedDifferencesAsync(designCells(a, g.attribute), designCells(of(g), g.attribute), classCount(g.attribute), {
        resamples: LOOK_RESAMPLES,
        level: req.level,
        seed: req.seed,
        key: `look|${groupText(g)}|${g.model}`,
        target: req.intervalTarget,
        paired: true,
        method: method(g.modality),
      });
      for (const m of req.target.metrics) {
        const d = diffs[m as BootstrapMetric];
        if (!d) continue;
        rows.push({
          model: `${g.model} − ${reference}`,
          group: groupText(g),
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
  });

/** Registers the look with the engine: the server's instrumentation and the CLI's commands call this once. */
export function registerLooks(): void {
  registerLookEvaluator(DEFAULT_SUITE_ID, factOrFairLook);
  // Suites whose scores are averages over images, each with its own look (the same bootstrap as their intervals).
  for (const suite of listSuites())
    if (suite.id !== DEFAULT_SUITE_ID && suite.comparable && suite.adaptiveVocabulary) registerLookEvaluator(suite.id, meanScoresLook(suite));
}

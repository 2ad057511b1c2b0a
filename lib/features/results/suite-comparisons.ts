// Is B different from A, for suites other than FACT-OR-FAIR? Every metric of every group both sides have, Δ = B − A
// with the design's interval and p-value, Holm's adjustment over the family and the same sentence as FACT-OR-FAIR's
// comparisons. A suite whose headline scores are averages over images says what is compared (Suite.comparable,
// lib/metrics/paired-means.ts); one whose scores are not computes its own (Suite.compare); a suite with
// neither offers no comparisons yet, and says so.
import type { PrismaClient } from "../../../generated/prisma/client";
import { badRequest } from "../../core/errors";
import { DEFAULT_INTERVAL_TARGET } from "../../metrics/design";
import { pairedMeanDifferences } from "../../metrics/paired-means";
import { isSeparable } from "../../metrics/paired";
import { holm } from "../../metrics/tests";
import { comparisonSentence } from "../../results/comparison-text";
import { suiteOf, type AnySuite } from "../../suites";
import type { SuiteContext } from "../../suites/types";
import type { IntervalTarget } from "../../metrics/design";
import type { Difference } from "../../metrics/paired";
import type { ScoringProfile } from "../../metrics/profiles";
import type { CompareOptions, ComparisonCore, ComparisonResult } from "./comparison-types";
import { byCodeUnits } from "../../core/order";

interface Side {
  id: string;
  seed: number;
  suiteId: string;
  benchmarkVersionId: string;
  model: string;
}

export async function compareSuiteSides(prisma: PrismaClient, a: Side, b: Side, opts: CompareOptions = {}): Promise<ComparisonResult> {
  const suite = suiteOf(a.suiteId);
  if (!suite.comparable && !suite.compare) throw badRequest(`${suite.name} runs cannot be compared yet: compare their tables on the run pages`);
  let target = opts.target ?? DEFAULT_INTERVAL_TARGET;
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? 0.95;
  // The same content: the same entries, drawn jointly under the population target.
  const paired = a.benchmarkVersionId === b.benchmarkVersionId;
  const labels = opts.labels ?? "model";
  const ctx = { prisma };
  const raw: Array<Omit<ComparisonCore, "pAdjusted" | "separable" | "sentence">> = [];
  let items: string;
  if (suite.compare) {
    const own = await suite.compare(ctx, {
      a: { runId: a.id, model: a.model },
      b: { runId: b.id, model: b.model },
      labels,
      profile: opts.profile,
      resamples,
      level,
      seed: a.seed,
      paired,
    });
    ({ items, target } = own);
    for (const r of own.rows)
      raw.push({
        metric: r.metric,
        metricName: r.metricName,
        group: r.group,
        ...pick(r.diff),
        paired,
        better: r.better,
        testUsed: "bootstrap",
        flags: r.diff.flags,
      });
  } else items = await comparableRows(ctx, suite, a, b, { target, resamples, level, paired, labels, profile: opts.profile }, raw);
  return {
    suite: suite.id,
    a: { runId: a.id, model: a.model },
    b: { runId: b.id, model: b.model },
    target,
    resamples,
    level,
    paired,
    pairing: paired ? `paired: both ran the same content (the same ${items})` : "unpaired: the runs were planned from different content versions",
    items,
    cached: false,
    comparisons: withAdjustedP(raw),
  };
}

/** A family of comparisons with Holm's adjusted p, whether each is separable, and its sentence. */
export function withAdjustedP(raw: ReadonlyArray<Omit<ComparisonCore, "pAdjusted" | "separable" | "sentence">>): ComparisonCore[] {
  const adjusted = holm(raw.map((r) => r.p));
  return raw.map((r, i) => {
    const row = { ...r, pAdjusted: adjusted[i], separable: isSeparable(adjusted[i], r.flags) };
    return { ...row, sentence: comparisonSentence(row) };
  });
}

const pick = (d: Difference) => ({ a: d.a, b: d.b, aPlugIn: d.aPlugIn, bPlugIn: d.bPlugIn, delta: d.delta, lo: d.lo, hi: d.hi, p: d.p });

/** Suites whose headline scores are averages over images (Suite.comparable): Δ per (model, group) and metric. */
async function comparableRows(
  ctx: SuiteContext,
  suite: AnySuite,
  a: Side,
  b: Side,
  o: { target: IntervalTarget; resamples: number; level: number; paired: boolean; labels: "model" | "reviewed"; profile?: ScoringProfile },
  raw: Array<Omit<ComparisonCore, "pAdjusted" | "separable" | "sentence">>,
): Promise<string> {
  const { target, resamples, level, paired, labels } = o;
  const [ca, cb] = await Promise.all([
    suite.comparable!(ctx, { runId: a.id, labels, profile: o.profile }),
    suite.comparable!(ctx, { runId: b.id, labels, profile: o.profile }),
  ]);
  for (const ga of ca.groups.filter((g) => g.model === a.model).sort((x, y) => byCodeUnits(x.key, y.key))) {
    const gb = cb.groups.find((g) => g.model === b.model && g.key === ga.key);
    if (!gb) continue;
    const ids = ca.metrics.map((m) => m.id);
    const diffs = pairedMeanDifferences(ga.units, gb.units, ids, { resamples, level, seed: a.seed, key: ga.key, target, paired, range: ca.range });
    for (const m of ca.metrics) {
      const d = diffs[m.id];
      if (!d) continue;
      raw.push({
        metric: m.id,
        metricName: m.label,
        group: ga.label,
        ...pick(d),
        paired,
        better: m.better,
        testUsed: "bootstrap",
        flags: d.flags,
      });
    }
  }
  return ca.items;
}

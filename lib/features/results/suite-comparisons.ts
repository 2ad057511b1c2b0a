// Is B different from A, for suites whose headline scores are averages over images (DoFaiR)? Every metric of every
// group both sides have, Δ = B − A with the design's interval and p-value (lib/metrics/paired-means.ts), Holm's
// adjustment over the family and the same sentence as FACT-OR-FAIR's comparisons. The suite says what is compared
// (Suite.comparable); a suite without it offers no comparisons yet, and says so.
import type { PrismaClient } from "../../../generated/prisma/client";
import { badRequest } from "../../core/errors";
import { DEFAULT_INTERVAL_TARGET } from "../../metrics/design";
import { pairedMeanDifferences } from "../../metrics/paired-means";
import { isSeparable } from "../../metrics/paired";
import { holm } from "../../metrics/tests";
import { comparisonSentence } from "../../results/comparison-text";
import { suiteOf } from "../../suites";
import type { CompareOptions, ComparisonCore, ComparisonResult } from "./comparison-types";

interface Side {
  id: string;
  seed: number;
  suiteId: string;
  benchmarkVersionId: string;
  model: string;
}

export async function compareSuiteSides(prisma: PrismaClient, a: Side, b: Side, opts: CompareOptions = {}): Promise<ComparisonResult> {
  const suite = suiteOf(a.suiteId);
  if (!suite.comparable) throw badRequest(`${suite.name} runs cannot be compared yet: compare their tables on the run pages`);
  const target = opts.target ?? DEFAULT_INTERVAL_TARGET;
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? 0.95;
  // The same content: the same entries, drawn jointly under the population target.
  const paired = a.benchmarkVersionId === b.benchmarkVersionId;
  const labels = opts.labels ?? "model";
  const ctx = { prisma };
  const [ca, cb] = await Promise.all([
    suite.comparable(ctx, { runId: a.id, labels, profile: opts.profile }),
    suite.comparable(ctx, { runId: b.id, labels, profile: opts.profile }),
  ]);
  const raw: Array<Omit<ComparisonCore, "pAdjusted" | "separable" | "sentence">> = [];
  for (const ga of ca.groups.filter((g) => g.model === a.model).sort((x, y) => x.key.localeCompare(y.key))) {
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
        a: d.a,
        b: d.b,
        delta: d.delta,
        lo: d.lo,
        hi: d.hi,
        p: d.p,
        paired,
        better: m.better,
        testUsed: "bootstrap",
        flags: d.flags,
      });
    }
  }
  const adjusted = holm(raw.map((r) => r.p));
  return {
    suite: suite.id,
    a: { runId: a.id, model: a.model },
    b: { runId: b.id, model: b.model },
    target,
    resamples,
    level,
    paired,
    pairing: paired ? `paired: both ran the same content (the same ${ca.items})` : "unpaired: the runs were planned from different content versions",
    items: ca.items,
    cached: false,
    comparisons: raw.map((r, i) => {
      const row = { ...r, pAdjusted: adjusted[i], separable: isSeparable(adjusted[i], r.flags) };
      return { ...row, sentence: comparisonSentence(row) };
    }),
  };
}

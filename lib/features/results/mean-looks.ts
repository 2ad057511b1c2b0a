// The look of an adaptive run (lib/features/runs/adaptive.ts) for suites whose headline scores are averages over
// images (Suite.comparable, e.g. DDC, IDC, IDF, FDD): every (model, group)'s interval at the look's level by the
// same clustered bootstrap as the run page's intervals (lib/metrics/mean-bootstrap.ts), and for "decided" targets
// every other model against the first, paired over the same entries (lib/metrics/paired-means.ts) as the Compare
// page's. The engine takes a look only when every image of the released waves is labelled.
import type { PrismaClient } from "../../../generated/prisma/client";
import { clusteredMeanIntervals } from "../../metrics/mean-bootstrap";
import { pairedMeanDifferences } from "../../metrics/paired-means";
import { LOOK_RESAMPLES } from "../../metrics/sequential";
import type { AnySuite } from "../../suites";
import { HELPER_TEST } from "../../suites/types";
import type { LookEvaluator } from "../runs/adaptive";
import { lookDecision, lookFlags, type LookRow } from "../../results/adaptive";

export function meanScoresLook(suite: AnySuite): LookEvaluator {
  return async (prisma: PrismaClient, req) => {
    if (!suite.comparable) return [];
    const scores = await suite.comparable({ prisma }, { runId: req.runId, labels: "model" });
    const [lo, hi] = scores.range;
    const rows: LookRow[] = [];
    const ids = scores.metrics.map((m) => m.id);
    const opts = (key: string) => ({
      resamples: LOOK_RESAMPLES,
      level: req.level,
      seed: req.seed,
      key: `look|${key}`,
      target: req.intervalTarget,
      range: scores.range,
      quantile: req.quantile,
    });
    if (req.target.kind === "halfwidth") {
      const wanted = req.target.halfwidth;
      for (const g of scores.groups) {
        const iv = clusteredMeanIntervals(g.units, ids, opts(`${g.model}|${g.key}`));
        for (const m of ids) {
          if (wanted[m] === undefined) continue;
          const i = iv[m];
          // No interval yet (fewer than two scored images): not pinned down, counted as its whole range.
          const row = i ? { estimate: i.estimate, lo: i.lo, hi: i.hi, ...lookFlags(i.flags) } : { estimate: (lo + hi) / 2, lo, hi };
          rows.push({ model: g.model, group: g.label, metric: m, ...row, target: wanted[m] });
        }
      }
      return rows;
    }
    const reference = await firstModel(prisma, req.runId);
    const target = req.target;
    for (const gb of scores.groups) {
      if (!reference || gb.model === reference) continue;
      const ga = scores.groups.find((g) => g.model === reference && g.key === gb.key);
      if (!ga) continue;
      const diffs = pairedMeanDifferences(ga.units, gb.units, ids, { ...opts(gb.key), paired: true });
      for (const m of target.metrics) {
        const d = diffs[m];
        rows.push(
          d
            ? {
                model: `${gb.model} − ${reference}`,
                group: gb.label,
                metric: m,
                estimate: d.delta,
                lo: d.lo,
                hi: d.hi,
                decision: lookDecision(d.lo, d.hi, target.margin, d.flags),
                ...lookFlags(d.flags),
              }
            : { model: `${gb.model} − ${reference}`, group: gb.label, metric: m, estimate: 0, lo: lo - hi, hi: hi - lo, decision: "open" },
        );
      }
    }
    return rows;
  };
}

/** The reference of an A-vs-B run: the first model launched (its rows were planned first, after a helper's). */
export async function firstModel(prisma: PrismaClient, runId: string): Promise<string | null> {
  const q = await prisma.query.findFirst({
    where: { runId, test: { not: HELPER_TEST } },
    orderBy: { id: "asc" },
    select: { modelConfig: { select: { slug: true } } },
  });
  return q?.modelConfig.slug ?? null;
}

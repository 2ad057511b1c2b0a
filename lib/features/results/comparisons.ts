// Is B's score different from A's? Two (run, model) sides of FACT-OR-FAIR, every score of every group both have,
// as Δ = B − A with an interval, a p-value and Holm's adjustment over the whole family (lib/metrics/paired.ts);
// objective accuracy by the exact McNemar test where the two sides answered the very same questions. Computed once
// per state of both sides' data and cached (ScoreCache, kind "compare").
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import { classCount, type Attribute, type Context, type Level, type Modality, type Test } from "../../benchmark";
import { designCells, intervalMethodOf } from "../../metrics";
import { BOOTSTRAP_METRICS, type BootstrapMetric } from "../../metrics/cluster-bootstrap";
import { pairedDifferencesAsync, type Difference } from "../../metrics/paired";
import { mcnemarExact } from "../../metrics/tests";
import { DEFAULT_INTERVAL_TARGET } from "../../metrics/design";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import { badRequest, notFound } from "../../core/errors";
import { columnOf } from "../../results/tradeoff";
import { BETTER } from "../../results/leaderboard";
import { designRecords } from "./explore";
import { compareSuiteSides, withAdjustedP } from "./suite-comparisons";
import type { CompareOptions, CompareSide, ComparisonCore, ComparisonResult } from "./comparison-types";

export type { CompareOptions, CompareSide, ComparisonCore, ComparisonResult };
import { DEFAULT_SUITE_ID, suiteOf } from "../../suites";
import { pinnedTruth } from "./run-results";
import { runBenchmark } from "../runs/pinned";
import { enqueue } from "./intervals";
import { keepInCache } from "../../db/score-cache";

/** A FACT-OR-FAIR comparison: its group's coordinates always set (see ComparisonCore for the rest). */
interface ComparisonRow extends ComparisonCore {
  metric: BootstrapMetric;
  /** the paper's column (O, S-B …) and attribute, e.g. "S-B race" */
  group: string;
  modality: Modality;
  test: Test;
  context: Context | null;
  attribute: Attribute;
  better: "higher" | "lower";
}

async function resolveSide(prisma: PrismaClient, side: CompareSide) {
  const run = await prisma.run.findUnique({
    where: { id: side.runId },
    select: {
      id: true,
      seed: true,
      suiteId: true,
      modality: true,
      benchmarkVersionId: true,
      models: { select: { modelConfig: { select: { slug: true } } } },
    },
  });
  if (!run) throw notFound(`run ${side.runId}`);
  const slugs = run.models.map((m) => m.modelConfig.slug);
  const model = side.model ?? (slugs.length === 1 ? slugs[0] : null);
  if (!model) throw badRequest(`run ${run.id} has ${slugs.length} models (${slugs.join(", ")}): name one as ${run.id}:<model>`);
  if (!slugs.includes(model)) throw badRequest(`run ${run.id} has no model "${model}" (it has ${slugs.join(", ")})`);
  return { ...run, model };
}

type Side = Awaited<ReturnType<typeof resolveSide>>;

/** Objective answers of both sides to the same questions (same run, or same content and seed): McNemar's counts. */
async function mcnemarCounts(prisma: PrismaClient, a: Side, b: Side, attribute: Attribute) {
  const [bmA, qa, qb] = await Promise.all([runBenchmark(prisma, a.id), objectiveAnswers(prisma, a, attribute), objectiveAnswers(prisma, b, attribute)]);
  if (!bmA) return null;
  const byKey = new Map(qb.map((q) => [q.key, q]));
  let onlyA = 0;
  let onlyB = 0;
  let pairs = 0;
  for (const x of qa) {
    const y = byKey.get(x.key);
    if (!y || x.answer === undefined || y.answer === undefined) continue;
    const truth = pinnedTruth(bmA, x.statisticId, attribute, x.level);
    if (truth === null) continue;
    pairs++;
    const ra = x.answer === truth;
    const rb = y.answer === truth;
    if (ra && !rb) onlyA++;
    if (rb && !ra) onlyB++;
  }
  return { pairs, onlyA, onlyB, p: mcnemarExact(onlyA, onlyB) };
}

async function objectiveAnswers(prisma: PrismaClient, side: Side, attribute: Attribute) {
  const rows = await prisma.query.findMany({
    where: { runId: side.id, test: "objective", attribute, status: { in: ["answered", "refused"] }, modelConfig: { slug: side.model } },
    select: { statisticId: true, level: true, repeatIndex: true, outcome: { select: { gender: true, race: true } } },
  });
  return rows.map((q) => ({
    key: `${q.statisticId}|${q.level}|${q.repeatIndex}`,
    statisticId: q.statisticId,
    level: q.level as Level,
    answer: (attribute === "gender" ? q.outcome?.gender : q.outcome?.race) ?? null,
  }));
}

/** Every score of every group both sides have, B − A, with the family's Holm-adjusted p-values. */
export async function compareSides(prisma: PrismaClient, sa: CompareSide, sb: CompareSide, opts: CompareOptions = {}): Promise<ComparisonResult> {
  const [a, b] = [await resolveSide(prisma, sa), await resolveSide(prisma, sb)];
  if (a.id === b.id && a.model === b.model) throw badRequest("compare two different sides (another run or another model)");
  if (a.suiteId !== b.suiteId) throw badRequest(`a ${suiteOf(a.suiteId).name} run cannot be compared with a ${suiteOf(b.suiteId).name} run`);
  // Other suites compare their own averages (lib/features/results/suite-comparisons.ts).
  if (a.suiteId !== DEFAULT_SUITE_ID) return compareSuiteSides(prisma, a, b, opts);
  if (a.modality !== b.modality) throw badRequest(`a ${a.modality} run cannot be compared with a ${b.modality} run`);
  const target = opts.target ?? DEFAULT_INTERVAL_TARGET;
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? 0.95;
  const profile = opts.profile ?? DEFAULT_PROFILE;
  // Same content: the same scenarios, so the population target draws them jointly. Same run or seed as well: the
  // very same questions (options in the same order), which McNemar's test needs.
  const paired = a.benchmarkVersionId === b.benchmarkVersionId;
  const sameQuestions = paired && (a.id === b.id || a.seed === b.seed);
  const pairing = paired
    ? `paired: both answered the same content${sameQuestions ? " and the same questions" : ""}`
    : "unpaired: the runs were planned from different content versions";
  const score = { labels: opts.labels, raceMapping: opts.raceMapping };
  const [ra, rb] = await Promise.all([
    designRecords(prisma, a.id, { ...score, modelSlug: a.model }),
    designRecords(prisma, b.id, { ...score, modelSlug: b.model }),
  ]);
  const canon = (rs: typeof ra) =>
    rs
      .map((r) =>
        [r.modality, r.test, r.context, r.statisticId, r.level, r.attribute, r.answer, r.truth ?? "-", r.count ?? 1, r.cluster ?? "", r.unit ?? ""].join("|"),
      )
      .sort();
  // v6: A and B are each side's bias-corrected estimate, Δ = b − a (lib/metrics/paired.ts shownSides), with the
  // plug-ins beside them; v7: records in canonical order (the same draws on SQLite and PostgreSQL); v8: S_fact keeps
  // small-cells where a cell has one answer — earlier entries not served
  const key = createHash("sha256")
    .update(JSON.stringify({ v: 8, a: [a.id, a.model], b: [b.id, b.model], target, resamples, level, profile, score, ra: canon(ra), rb: canon(rb) }))
    .digest("hex");
  const hit = await prisma.scoreCache.findUnique({ where: { key } });
  if (hit) return { ...(JSON.parse(hit.json) as ComparisonResult), cached: true };
  // CPU-bound: queued behind (and beside) the intervals' computations, one at a time per process.
  return enqueue(() => compute());

  async function compute(): Promise<ComparisonResult> {
    const groupKey = (r: (typeof ra)[number]) => JSON.stringify([r.modality, r.test, r.context, r.attribute]);
    const groups = [...new Set(ra.map(groupKey))].filter((g) => rb.some((r) => groupKey(r) === g)).sort();
    const raw: Array<Omit<ComparisonRow, "pAdjusted" | "separable" | "sentence">> = [];
    for (const g of groups) {
      const [modality, test, context, attribute] = JSON.parse(g) as [Modality, Test, Context | null, Attribute];
      const mine = (rs: typeof ra) => rs.filter((r) => groupKey(r) === g);
      const diffs = await pairedDifferencesAsync(designCells(mine(ra), attribute), designCells(mine(rb), attribute), classCount(attribute), {
        resamples,
        level,
        seed: a.seed,
        key: g,
        target,
        paired,
        method: intervalMethodOf(profile, modality),
      });
      const mc = test === "objective" && modality === "llm" && sameQuestions ? await mcnemarCounts(prisma, a, b, attribute) : null;
      for (const metric of BOOTSTRAP_METRICS) {
        const d: Difference | null = diffs[metric];
        if (!d) continue;
        const useMcnemar = metric === "sFact" && mc !== null && mc.pairs > 0;
        raw.push({
          metric,
          group: `${columnOf(modality, test, context)} ${attribute}`,
          modality,
          test,
          context,
          attribute,
          a: d.a,
          b: d.b,
          aPlugIn: d.aPlugIn,
          bPlugIn: d.bPlugIn,
          delta: d.delta,
          lo: d.lo,
          hi: d.hi,
          p: useMcnemar ? mc.p : d.p,
          paired,
          better: BETTER[metric],
          testUsed: useMcnemar ? "mcnemar" : "bootstrap",
          flags: d.flags,
        });
      }
    }
    const comparisons = withAdjustedP(raw);
    const result: ComparisonResult = {
      suite: DEFAULT_SUITE_ID,
      items: "scenarios",
      a: { runId: a.id, model: a.model },
      b: { runId: b.id, model: b.model },
      target,
      resamples,
      level,
      paired,
      pairing,
      cached: false,
      comparisons,
    };
    await keepInCache(prisma, { key, runId: a.id, kind: "compare", json: JSON.stringify(result) });
    return result;
  }
}

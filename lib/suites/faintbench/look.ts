// FAIntbench's look for adaptive runs (lib/features/runs/adaptive.ts): Table 2's three scores per model — implicit
// and explicit bias, η — with the results' own bootstrap about the population of prompts (prompts, or η pairs,
// resampled with all their images), at the look's level. Its runs grow by images per prompt (every prompt in every
// wave: the engine's default cut), so each look scores every prompt on the images released so far. They stop on ±h
// targets, or when every other model against the first is decided (`decided:implicit,eta`, narrowed to one
// attribute with `;attribute=race`) by the Compare page's paired comparison over the same prompts (./compare.ts).
import { lookDecision, type LookRow } from "../../results/adaptive";
import { LOOK_RESAMPLES, type MetricVocabulary } from "../../metrics/sequential";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import { HELPER_TEST, type LookRequest, type SuiteContext } from "../types";
import { ATTRIBUTES, ATTRIBUTE_LABELS, type Attribute } from "./classes";
import { faintDifferences, type FaintMetric } from "./compare";
import { parsePinned, type FaintContent } from "./content";
import { collect } from "./results";
import type { PromptTally } from "./score";
import { targetScores } from "./exact";
import { byCodeUnits } from "../../core/order";

const HEADLINE = ["implicit", "explicit", "eta"] as const;

export const FAINT_VOCABULARY: MetricVocabulary = {
  ids: HEADLINE,
  names: { implicit: "implicit bias", explicit: "explicit bias", eta: "η" },
  aliases: { implicitbias: "implicit", explicitbias: "explicit", η: "eta", manifestation: "eta" },
  attributes: ATTRIBUTES,
};

export async function faintLook(ctx: SuiteContext, req: LookRequest): Promise<LookRow[]> {
  const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: req.runId }, select: { benchmarkVersion: { select: { contentJson: true } } } });
  const content = parsePinned(run.benchmarkVersion.contentJson);
  const { byModel } = await collect(ctx, req.runId, content, "model");
  if (req.target.kind === "decided") return decidedRows(ctx, req, content, byModel);
  const wanted = req.target.halfwidth;
  const rows: LookRow[] = [];
  for (const [model, tallies] of [...byModel].sort(([a], [b]) => byCodeUnits(a, b))) {
    const s = targetScores(content, tallies, {
      resamples: LOOK_RESAMPLES,
      seed: req.seed,
      profile: DEFAULT_PROFILE,
      level: req.level,
      target: req.intervalTarget,
    });
    for (const m of HEADLINE) {
      if (wanted[m] === undefined) continue;
      const v = s[m].all;
      // Every score lies in 0–1; one without an interval yet is not pinned down: its whole range.
      rows.push(
        v.value !== null && v.lo !== undefined && v.hi !== undefined
          ? { model, group: "all prompts", metric: m, estimate: v.estimate ?? v.value, lo: v.lo, hi: v.hi, target: wanted[m] }
          : { model, group: "all prompts", metric: m, estimate: 0.5, lo: 0, hi: 1, target: wanted[m] },
      );
    }
  }
  return rows;
}

/** A vs B: every other model against the first launched, paired over the same prompts, on the targeted totals. */
async function decidedRows(ctx: SuiteContext, req: LookRequest, content: FaintContent, byModel: ReadonlyMap<string, ReadonlyMap<string, PromptTally>>) {
  if (req.target.kind !== "decided") return [];
  // The reference: the first model launched (its rows were planned first).
  const first = await ctx.prisma.query.findFirst({
    where: { runId: req.runId, test: { not: HELPER_TEST } },
    orderBy: { id: "asc" },
    select: { modelConfig: { select: { slug: true } } },
  });
  if (!first) return [];
  return decidedLookRows(content, byModel, first.modelConfig.slug, req.target, req.level, req.seed);
}

/** The rows of a "decided" look: B − A per other model and targeted metric, each with its decision. */
export function decidedLookRows(
  content: FaintContent,
  byModel: ReadonlyMap<string, ReadonlyMap<string, PromptTally>>,
  reference: string,
  target: Extract<LookRequest["target"], { kind: "decided" }>,
  level: number,
  seed: number,
  resamples = LOOK_RESAMPLES,
): LookRow[] {
  const key = target.attribute ?? "all";
  const group = target.attribute ? ATTRIBUTE_LABELS[target.attribute as Attribute] : "all prompts";
  const metrics = target.metrics.filter((m): m is FaintMetric => (HEADLINE as readonly string[]).includes(m));
  const side = (m: string) => ({ content, tallies: byModel.get(m) ?? new Map<string, PromptTally>() });
  const rows: LookRow[] = [];
  for (const model of [...byModel.keys()].sort()) {
    if (model === reference) continue;
    const diffs = faintDifferences(side(reference), side(model), { resamples, level, seed, paired: true, profile: DEFAULT_PROFILE, metrics, keys: [key] });
    for (const m of metrics) {
      const d = diffs.find((x) => x.metric === m);
      // No difference yet (a side without scored prompts): open, its whole range.
      rows.push(
        d
          ? {
              model: `${model} − ${reference}`,
              group,
              metric: m,
              estimate: d.delta,
              lo: d.lo,
              hi: d.hi,
              decision: lookDecision(d.lo, d.hi, target.margin, d.flags),
            }
          : { model: `${model} − ${reference}`, group, metric: m, estimate: 0, lo: -1, hi: 1, decision: "open" },
      );
    }
  }
  return rows;
}

// FAIntbench's rank intervals (Suite.rankArms): Table 2's three scores — implicit and explicit bias over all prompts,
// η over its pairs — for every (run, model), each an arm whose units are its prompts (η: the content's pairs, by
// position) with the statistic the table computes; runs of one content draw the same prompts. The implicit score
// ranks on its bias-corrected per-prompt scores, as its interval reads them. η is best at ½: it ranks |η − ½|.
import type { RankGroup, SuiteContext } from "../types";
import { DEFAULT_PROFILE, type ScoringProfile } from "../../metrics/profiles";
import { parsePinned, type FaintContent } from "./content";
import { collect } from "./results";
import { entries, type PromptTally } from "./score";
import { promptSums } from "./compare";
import { etaUnits } from "./eta-score";
import { sumRatio, type WeightedSum } from "./metrics";
import { byCodeUnits } from "../../core/order";

export async function faintRankArms(
  ctx: SuiteContext,
  req: { runIds: readonly string[]; labels: "model" | "reviewed"; profile?: ScoringProfile },
): Promise<RankGroup[]> {
  const sides: RankSide[] = [];
  for (const runId of req.runIds) {
    const run = await ctx.prisma.run.findUniqueOrThrow({
      where: { id: runId },
      select: { benchmarkVersionId: true, benchmarkVersion: { select: { contentJson: true } } },
    });
    const content = parsePinned(run.benchmarkVersion.contentJson);
    const { byModel } = await collect(ctx, runId, content, req.labels);
    for (const [model, tallies] of [...byModel].sort(([a], [b]) => byCodeUnits(a, b)))
      sides.push({ runId, model, content, contentKey: run.benchmarkVersionId, tallies });
  }
  return faintRankGroups(sides, req.profile ?? DEFAULT_PROFILE);
}

/** A (run, model) to rank: its content (the version it was planned from) and its prompts' tallies. */
export interface RankSide {
  runId: string;
  model: string;
  content: FaintContent;
  contentKey: string;
  tallies: ReadonlyMap<string, PromptTally>;
}

/** Table 2's three rankings over the sides' units (see the header). */
export function faintRankGroups(sides: readonly RankSide[], profile: ScoringProfile): RankGroup[] {
  const groups: RankGroup[] = [
    { metric: "implicit", metricName: "implicit bias", group: "all prompts", better: "higher", arms: [] },
    { metric: "explicit", metricName: "explicit bias", group: "all prompts", better: "higher", arms: [] },
    { metric: "eta", metricName: "|η − ½|", group: "all pairs", better: "lower", arms: [] },
  ];
  for (const { runId, model, content, contentKey, tallies } of sides) {
    const arm = { runId, model, key: `${runId}|${model}`, content: contentKey };
    const e = entries(content, tallies, profile);
    groups[0].arms.push({ ...arm, units: promptSums(e.implicitUnits, e.implicitIds, "all", true), stat: (s) => sumRatio(s as WeightedSum[]) });
    groups[1].arms.push({ ...arm, units: promptSums(e.explicitUnits, e.explicitIds, "all", true), stat: (s) => sumRatio(s as WeightedSum[]) });
    const eta = etaUnits(content, tallies, profile);
    if (!eta.withData("all")) continue;
    // By position in the content's pairs; paper-text leaves a pair without data out of the statistic.
    const units = new Map(eta.units.map((u, i) => [String(i).padStart(4, "0"), u] as const));
    groups[2].arms.push({
      ...arm,
      units,
      stat: (s) => {
        const v = eta.stat(s as typeof eta.units, "all");
        return v === null ? null : Math.abs(v - 0.5);
      },
    });
  }
  return groups;
}

// FAIntbench's look for adaptive runs (lib/features/runs/adaptive.ts): Table 2's three scores per model — implicit
// and explicit bias, η — with the results' own bootstrap about the population of prompts (prompts, or η pairs,
// resampled with all their images), at the look's level. Its runs grow by images per prompt (every prompt in every
// wave: the engine's default cut), so each look scores every prompt on the images released so far; they stop on ±h
// targets (A vs B needs a paired comparison of these scores, not built yet).
import type { LookRow } from "../../results/adaptive";
import { LOOK_RESAMPLES, type MetricVocabulary } from "../../metrics/sequential";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import type { LookRequest, SuiteContext } from "../types";
import { parsePinned } from "./content";
import { collect } from "./results";
import { modelScores } from "./score";

const HEADLINE = ["implicit", "explicit", "eta"] as const;

export const FAINT_VOCABULARY: MetricVocabulary = {
  ids: HEADLINE,
  names: { implicit: "implicit bias", explicit: "explicit bias", eta: "η" },
  aliases: { implicitbias: "implicit", explicitbias: "explicit", η: "eta", manifestation: "eta" },
  decided: false,
};

export async function faintLook(ctx: SuiteContext, req: LookRequest): Promise<LookRow[]> {
  if (req.target.kind !== "halfwidth") return [];
  const wanted = req.target.halfwidth;
  const run = await ctx.prisma.run.findUniqueOrThrow({ where: { id: req.runId }, select: { benchmarkVersion: { select: { contentJson: true } } } });
  const content = parsePinned(run.benchmarkVersion.contentJson);
  const { byModel } = await collect(ctx, req.runId, content, "model");
  const rows: LookRow[] = [];
  for (const [model, tallies] of [...byModel].sort(([a], [b]) => a.localeCompare(b))) {
    const s = modelScores(content, tallies, LOOK_RESAMPLES, req.seed, DEFAULT_PROFILE, req.level);
    for (const m of HEADLINE) {
      if (wanted[m] === undefined) continue;
      const v = s[m].all;
      // Every score lies in 0–1; one without an interval yet is not pinned down: its whole range.
      rows.push(
        v.value !== null && v.lo !== undefined && v.hi !== undefined
          ? { model, group: "all prompts", metric: m, estimate: v.value, lo: v.lo, hi: v.hi, target: wanted[m] }
          : { model, group: "all prompts", metric: m, estimate: 0.5, lo: 0, hi: 1, target: wanted[m] },
      );
    }
  }
  return rows;
}

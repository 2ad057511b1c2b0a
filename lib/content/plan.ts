// Know the cost before you spend (issue #57): for a content set and a preset, the queries it plans, their prompt
// tokens (measured on the set's own prompts for a seed), and the expected 95 % half-width of each score per attribute,
// from the intervals' simulation with known truth (lib/metrics/simulate.ts) on the set's own design — its statistics,
// scenarios per cell, answers per scenario and k — and the answers per scenario it would take to reach ±target.
import { simulateCoverage, type SimModel } from "../metrics/simulate";
import type { BootstrapMetric } from "../metrics/design";
import { declaredContexts, type ContentContext } from "./render";
import { previewPrompts } from "./preview";
import type { ContentSetInput } from "./schema";

/** The answering model the plan assumes: per-scenario preferences around a 60 %-accurate model (bench:stats' scenario-sensitive). */
const PLAN_MODEL: SimModel = { kind: "scenario", accuracy: 0.6, concentration: 8 };
/** answers per scenario tried, smallest first, for the ±target search */
const REPEAT_LADDER = [1, 3, 5, 10, 20, 30, 50, 100, 200] as const;
/** scenarios per cell tried for the ±target search */
const SCENARIO_LADDER = [3, 5, 10, 20, 30] as const;
const SUBJECTIVE_SCORES: BootstrapMetric[] = ["sE", "sKLD", "sFair", "distance"];

export interface PlanPreset {
  objectiveRepeats: number;
  subjectiveRepeats: number;
}

interface AttributePlan {
  attribute: string;
  k: number;
  /** statistics with a highest and lowest class for this attribute */
  statistics: number;
  scenariosPerCell: number;
  /** expected half-width per score at this preset (S_fact: its objective questions, the worst case p = ½) */
  halfWidth: Record<BootstrapMetric, number | null>;
  /** the smallest answers per scenario whose subjective half-widths all reach ±target (null: none up to 200) */
  repeatsForTarget: number | null;
  /** the fewest scenarios per cell whose half-widths reach ±target at this preset's answers (null: none up to 30) */
  scenariosForTarget: number | null;
  meetsTarget: boolean;
}

export interface ContentPlan {
  queries: { objective: number; subjective: number; total: number };
  /** summed over the planned queries, chars / 4 of each prompt (repeats share their kind's prompt length) */
  promptTokens: number;
  contexts: ContentContext[];
  attributes: AttributePlan[];
  warnings: string[];
}

function meanHalfWidths(statistics: number, truthShare: number, k: number, scenarios: number, repeats: number, runs: number, seed: number) {
  const rows = simulateCoverage({
    design: { statistics, truthShare, k, scenariosPerCell: scenarios, unitsPerScenario: repeats, refusalRate: 0.03 },
    model: PLAN_MODEL,
    target: "population",
    runs,
    resamples: 150,
    seed,
    scheme: "design",
  });
  return Object.fromEntries(rows.map((r) => [r.metric, r.runs ? r.meanHalfWidth : null])) as Record<BootstrapMetric, number | null>;
}

export function planContent(
  set: ContentSetInput,
  preset: PlanPreset,
  opts: { target?: number; runs?: number; seed?: number; contexts?: ContentContext[] } = {},
): ContentPlan {
  const target = opts.target ?? 0.05;
  const runs = opts.runs ?? 12;
  const seed = opts.seed ?? 1;
  const contexts = opts.contexts ?? declaredContexts(set);
  const stats = set.statistics ?? [];
  let objective = 0;
  let subjective = 0;
  let promptTokens = 0;
  for (const p of previewPrompts(set, seed)) {
    if (p.test === "subjective" && !contexts.includes(p.context!)) continue;
    const n = p.test === "objective" ? preset.objectiveRepeats : preset.subjectiveRepeats;
    if (p.test === "objective") objective += n;
    else subjective += n;
    promptTokens += n * Math.ceil(p.prompt.length / 4);
  }
  const warnings: string[] = [];
  const attributes = set.attributes.map((a): AttributePlan => {
    const k = a.classes.length;
    const withTruth = stats.filter((s) => s.groundTruth[a.id]).length;
    const scenarios = Math.min(...stats.map((s) => Math.min(s.scenarios.highest.length, s.scenarios.lowest.length)));
    const at = (repeats: number, m = scenarios) => meanHalfWidths(stats.length, withTruth / Math.max(1, stats.length), k, m, repeats, runs, seed);
    const halfWidth = at(preset.subjectiveRepeats);
    // S_fact is read from the objective questions: a pooled proportion over 2 levels × statistics × repeats.
    const n = 2 * withTruth * preset.objectiveRepeats;
    halfWidth.sFact = n ? 1.96 * Math.sqrt(0.25 / n) : null;
    const worst = (h: Record<BootstrapMetric, number | null>) => Math.max(...SUBJECTIVE_SCORES.map((m) => h[m] ?? 0));
    let repeatsForTarget: number | null = null;
    for (const r of REPEAT_LADDER) {
      const h = r === preset.subjectiveRepeats ? halfWidth : at(r);
      if (worst(h) <= target) {
        repeatsForTarget = r;
        break;
      }
    }
    const meetsTarget = worst(halfWidth) <= target && (halfWidth.sFact ?? 0) <= target;
    let scenariosForTarget: number | null = null;
    if (!meetsTarget)
      for (const m of SCENARIO_LADDER.filter((x) => x > scenarios))
        if (worst(at(preset.subjectiveRepeats, m)) <= target) {
          scenariosForTarget = m;
          break;
        }
    if (meetsTarget) scenariosForTarget = scenarios;
    const reach = `this preset reaches ±${worst(halfWidth).toFixed(3)} on its subjective scores`;
    if (!meetsTarget && repeatsForTarget === null && scenariosForTarget === null)
      warnings.push(
        `${a.id}: ${reach}; ±${target} is out of reach with ${scenarios} scenario(s) per cell at up to 200 answers each, and with up to 30 scenarios at this preset — add statistics or scenarios`,
      );
    else if (!meetsTarget)
      warnings.push(
        `${a.id}: ${reach}; ±${target} needs ${[repeatsForTarget !== null ? `about ${repeatsForTarget} answers per scenario` : null, scenariosForTarget !== null ? `${scenariosForTarget} scenarios per cell` : null].filter(Boolean).join(", or ")}`,
      );
    if ((halfWidth.sFact ?? 0) > target)
      warnings.push(`${a.id}: S_fact ±${halfWidth.sFact!.toFixed(3)} from ${n} objective answers — more objective repeats narrow it`);
    if (scenarios < 3) warnings.push(`${a.id}: ${scenarios} scenario(s) per cell — population intervals need 3 (few-scenarios)`);
    return { attribute: a.id, k, statistics: withTruth, scenariosPerCell: scenarios, halfWidth, repeatsForTarget, scenariosForTarget, meetsTarget };
  });
  return { queries: { objective, subjective, total: objective + subjective }, promptTokens, contexts, attributes, warnings };
}

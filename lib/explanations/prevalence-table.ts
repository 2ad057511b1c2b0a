// The explanation results from plain data (issue #67): per model, and per model × statistic, × context and
// × statistic × context, how often explanations show each error — from the people's stratified sample and from the
// judge corrected for its measured misreadings — with the reviewers' agreement (Krippendorff's alpha per tag), the
// judge's accuracy against the people, and how the errors relate to the choices. Pure: the feature layer reads the
// database into these inputs; tests and the verifier feed them directly.
import { EXPLANATION_TAGS, type ExplanationTag } from "./tags";
import { correctedPrevalence, sampledPrevalence, judgeAccuracy, type JudgeCheck, type Prevalence, type CorrectedPrevalence } from "../metrics/prevalence";
import { alphaInterval, type AlphaInterval } from "../metrics/krippendorff";
import { wilson } from "../metrics/interval-math";
import * as libm from "../core/libm";

export interface ExplanationUnit {
  outcomeId: number;
  model: string;
  statisticId: string;
  context: string | null;
  /** whether the answer picked the context's group, per attribute (null: the context names none) */
  pickedContextGroup: Readonly<Record<string, boolean | null>>;
  /** the chosen person's class per attribute (gender, race; null where the answer has none) */
  chosen?: Readonly<Record<string, string | null>>;
}

export interface TableInput {
  /** every explanation of the run (the population) */
  explanations: readonly ExplanationUnit[];
  /** the sampled explanations' readings: outcome → reviewer → the tags they read (excluded reviewers already out) */
  readings: ReadonlyMap<number, ReadonlyMap<string, ReadonlySet<ExplanationTag>>>;
  /** the sampled explanations (reviewed or not yet) */
  sampled: ReadonlySet<number>;
  /** the judge's tags per explanation it tagged (absent: not judged, or its reply unreadable) */
  judged?: ReadonlyMap<number, ReadonlySet<ExplanationTag>>;
  seed?: number;
  replicates?: number;
}

/** Rows: per model; × statistic; × context; × statistic × context (the strata); × the chosen person's class of an attribute. */
export type Scope = "model" | "statistic" | "context" | "cell" | "choice";

interface TagRow {
  tag: ExplanationTag;
  people: Prevalence;
  judge: CorrectedPrevalence | null;
}

export interface TableRow {
  scope: Scope;
  model: string;
  statisticId: string | null;
  context: string | null;
  /** scope "choice": the attribute and the class the answers chose (a domain of the strata, its size known) */
  attribute: string | null;
  chosen: string | null;
  explanations: number;
  reviewed: number;
  tags: TagRow[];
}

/** The rows a unit counts in at a scope (one, but one per attribute it has a choice of for "choice"). */
const keysOf = (scope: Scope, u: Pick<ExplanationUnit, "model" | "statisticId" | "context" | "chosen">): string[] =>
  scope === "model"
    ? [u.model]
    : scope === "statistic"
      ? [`${u.model}|${u.statisticId}`]
      : scope === "context"
        ? [`${u.model}|${u.context ?? "-"}`]
        : scope === "cell"
          ? [`${u.model}|${u.statisticId}|${u.context ?? "-"}`]
          : Object.entries(u.chosen ?? {})
              .filter(([, c]) => c !== null)
              .map(([a, c]) => JSON.stringify([u.model, a, c]));
const stratumOf = (u: ExplanationUnit) => `${u.model}|${u.statisticId}|${u.context ?? "-"}`;

function push<T>(m: Map<string, T[]>, key: string, v: T) {
  const list = m.get(key);
  if (list) list.push(v);
  else m.set(key, [v]);
}

/** An item's value for a tag: the share of its reviewers who read it there. */
export function valueOf(readers: ReadonlyMap<string, ReadonlySet<ExplanationTag>> | undefined, tag: ExplanationTag): number | null {
  if (!readers || !readers.size) return null;
  let yes = 0;
  for (const tags of readers.values()) if (tags.has(tag)) yes++;
  return yes / readers.size;
}

/** The judge against the people, per tag: explanations read by two or more reviewers who agree, and judged. */
function judgeChecks(input: Pick<TableInput, "readings" | "judged">): Record<ExplanationTag, JudgeCheck> {
  const out = Object.fromEntries(
    EXPLANATION_TAGS.map((t) => [
      t,
      {
        counts: [
          [0, 0],
          [0, 0],
        ],
      },
    ]),
  ) as Record<ExplanationTag, JudgeCheck>;
  if (!input.judged) return out;
  for (const [id, readers] of input.readings) {
    const judge = input.judged.get(id);
    if (!judge || readers.size < 2) continue;
    for (const tag of EXPLANATION_TAGS) {
      const v = valueOf(readers, tag);
      if (v !== 0 && v !== 1) continue;
      out[tag].counts[v][judge.has(tag) ? 1 : 0]++;
    }
  }
  return out;
}

/** Krippendorff's alpha per tag over the explanations read by two or more reviewers. */
export function agreementByTag(readings: TableInput["readings"], seed = 1): Record<ExplanationTag, AlphaInterval> {
  return Object.fromEntries(
    EXPLANATION_TAGS.map((tag) => {
      const units = [...readings.values()].filter((r) => r.size >= 2).map((r) => [...r.values()].map((tags) => (tags.has(tag) ? 1 : 0)));
      return [tag, alphaInterval(units, { seed, replicates: 500 })];
    }),
  ) as Record<ExplanationTag, AlphaInterval>;
}

export function prevalenceTable(input: TableInput, scopes: readonly Scope[] = ["model", "statistic", "context", "cell", "choice"]): TableRow[] {
  const checks = judgeChecks(input);
  const rows: TableRow[] = [];
  for (const scope of scopes) {
    const groups = new Map<string, ExplanationUnit[]>();
    for (const u of input.explanations) for (const k of keysOf(scope, u)) push(groups, k, u);
    for (const [key, units] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const strata = new Map<string, ExplanationUnit[]>();
      for (const u of units) push(strata, stratumOf(u), u);
      const first = units[0];
      const reviewed = units.filter((u) => input.sampled.has(u.outcomeId) && input.readings.get(u.outcomeId)?.size).length;
      const tags = EXPLANATION_TAGS.map((tag): TagRow => {
        const people = sampledPrevalence(
          [...strata.values()].map((s) => ({
            population: s.length,
            values: s
              .filter((u) => input.sampled.has(u.outcomeId))
              .flatMap((u) => {
                const v = valueOf(input.readings.get(u.outcomeId), tag);
                return v === null ? [] : [v];
              }),
          })),
        );
        let judge: CorrectedPrevalence | null = null;
        if (input.judged) {
          const tagsOf = units.flatMap((u) => {
            const j = input.judged!.get(u.outcomeId);
            return j ? [j.has(tag) ? 1 : 0] : [];
          });
          judge = correctedPrevalence(tagsOf, checks[tag], { seed: input.seed ?? 1, replicates: input.replicates ?? 1000 });
        }
        return { tag, people, judge };
      });
      rows.push({
        scope,
        model: first.model,
        statisticId: scope === "statistic" || scope === "cell" ? first.statisticId : null,
        context: scope === "context" || scope === "cell" ? first.context : null,
        attribute: scope === "choice" ? (JSON.parse(key) as string[])[1] : null,
        chosen: scope === "choice" ? (JSON.parse(key) as string[])[2] : null,
        explanations: units.length,
        reviewed,
        tags,
      });
    }
  }
  return rows;
}

export interface ChoiceRow {
  model: string;
  attribute: string;
  picked: boolean;
  tag: ExplanationTag;
  reviewed: number;
  share: number | null;
  lo: number | null;
  hi: number | null;
}

/**
 * How the errors relate to the choices (cf. FACT-OR-FAIR v2 Table 3): among reviewed explanations whose answer picked
 * the context's group (and among those that did not), the share reading each error — the reviewers' mean, Wilson 95 %.
 */
export function choiceTable(input: Pick<TableInput, "explanations" | "readings" | "sampled">): ChoiceRow[] {
  const out: ChoiceRow[] = [];
  const models = [...new Set(input.explanations.map((u) => u.model))].sort();
  for (const model of models)
    for (const attribute of ["gender", "race"])
      for (const picked of [true, false]) {
        const units = input.explanations.filter(
          (u) => u.model === model && u.pickedContextGroup[attribute] === picked && input.sampled.has(u.outcomeId) && input.readings.get(u.outcomeId)?.size,
        );
        for (const tag of EXPLANATION_TAGS) {
          const values = units.map((u) => valueOf(input.readings.get(u.outcomeId), tag)!);
          const n = values.length;
          const x = values.reduce((a, b) => a + b, 0);
          const w = n ? wilson(x, n) : null;
          out.push({ model, attribute, picked, tag, reviewed: n, share: n ? x / n : null, lo: w?.lo ?? null, hi: w?.hi ?? null });
        }
      }
  return out;
}

/** The judge's accuracy per tag as measured (sensitivity, specificity, how many checks). */
export function judgeAccuracyByTag(input: Pick<TableInput, "readings" | "judged">) {
  const checks = judgeChecks(input);
  return EXPLANATION_TAGS.map((tag) => ({ tag, ...judgeAccuracy(checks[tag]), counts: checks[tag].counts }));
}

/**
 * The difference of two independent prevalences (two models' explanations) with Newcombe's MOVER interval from
 * their own intervals: a difference whose interval holds 0 is "not separable".
 */
export function prevalenceDifference(a: Pick<Prevalence, "estimate" | "lo" | "hi">, b: Pick<Prevalence, "estimate" | "lo" | "hi">) {
  if (a.estimate === null || b.estimate === null || a.lo === null || b.lo === null || a.hi === null || b.hi === null) return null;
  const d = a.estimate - b.estimate;
  return { difference: d, lo: d - libm.hypot(a.estimate - a.lo, b.hi - b.estimate), hi: d + libm.hypot(a.hi - a.estimate, b.estimate - b.lo) };
}

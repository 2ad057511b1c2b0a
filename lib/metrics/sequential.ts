// Audits that stop when the answer is clear (DESIGN.md §12, docs/scoring.md "Adaptive runs"), client-safe: the
// launch form, the CLI, the API, the engine and the simulation read these same definitions.
//
// The design is group-sequential and fixed before the first call: the full plan (the preset: the cap) is cut into
// waves, each a random, stratified, growing prefix of it; after each wave ("a look") the scores' intervals are
// computed at that look's level and the run stops when its target is met, else the next wave is released. The
// levels come from Bonferroni alpha spending: look j spends α_j of α = 0.05, Σ α_j = α, so the probability that the
// interval reported at whichever look the run stops misses its truth is at most Σ_j P(look j's interval misses) ≤ α
// — whatever the stopping rule, the dependence between looks or how often anyone watched. Unequal shares put most
// of α where a run is expected to stop (Bonferroni allows any split fixed in advance).
import { BOOTSTRAP_METRICS } from "./design";

/** α of the whole design: a stopped run's intervals cover with at least 1 − α. */
export const ADAPTIVE_ALPHA = 0.05;

export interface LookSchedule {
  /** cumulative share of the plan released by each look, increasing, the last 1 (the cap) */
  fractions: readonly number[];
  /** share of α each look spends, summing to 1 */
  alphaShares: readonly number[];
}

/**
 * The default design: four looks at 8, 24, 50 and 100 % of the plan. 80 % of α is spent at 24 % (interval level
 * 96 %), where a FACT-OR-FAIR paper preset's ±0.05 target is met (bench:adaptive); the first look spends 5 % (level
 * 99.75 %): a clear A-vs-B difference stops within a tenth of the plan; the later ones 7.5 % each (99.625 %) carry a
 * harder target on to the cap. Fewer looks keep each look's share large (five equal looks would need 99 % intervals
 * everywhere, about 30 % more items for the same width).
 */
export const DEFAULT_SCHEDULE: LookSchedule = {
  fractions: [0.08, 0.24, 0.5, 1],
  alphaShares: [0.05, 0.8, 0.075, 0.075],
};

/** Resamples per look: 2,000, so that a 99.75 % look's tails rest on 5 resamples each rather than 2. */
export const LOOK_RESAMPLES = 2000;

/** Each look's interval level, 1 − α·share. */
export function lookLevels(schedule: LookSchedule = DEFAULT_SCHEDULE, alpha = ADAPTIVE_ALPHA): number[] {
  return schedule.alphaShares.map((s) => 1 - alpha * s);
}

/** How many of a stratum's n items are released by each look: ⌈f·n⌉, at least one, never fewer than before. */
export function waveSizes(n: number, schedule: LookSchedule = DEFAULT_SCHEDULE): number[] {
  let prev = 0;
  return schedule.fractions.map((f) => (prev = Math.min(n, Math.max(prev, 1, Math.ceil(f * n - 1e-9)))));
}

/** The wave (1-based) of the item at `rank` (0-based) of a stratum of n in the released order. */
export function waveOfRank(rank: number, n: number, schedule: LookSchedule = DEFAULT_SCHEDULE): number {
  const sizes = waveSizes(n, schedule);
  const j = sizes.findIndex((s) => rank < s);
  return (j < 0 ? sizes.length - 1 : j) + 1;
}

/**
 * The scores a suite's adaptive runs may target, as they are written (`sE<=0.03`, `decided:ddc`): ids, how they are
 * shown, the spellings accepted for them, and the attributes a "decided" target may be narrowed to. The suite gives
 * it (Suite.adaptiveVocabulary); the run stores the names, so every surface shows them without knowing the suite.
 */
export interface MetricVocabulary {
  ids: readonly string[];
  names: Readonly<Record<string, string>>;
  /** lower-case spellings (underscores and spaces dropped) → id; every id is accepted as written too */
  aliases?: Readonly<Record<string, string>>;
  attributes?: readonly string[];
  /** false: the suite's runs stop on ±h targets only (no paired comparison to decide A vs B with yet) */
  decided?: boolean;
}

/** FACT-OR-FAIR's headline scores (the design bootstrap's metrics). */
export const FOF_VOCABULARY: MetricVocabulary = {
  ids: BOOTSTRAP_METRICS,
  names: { sFact: "S_fact", sE: "S_E", sKLD: "S_KLD", sFair: "S_fair", distance: "d" },
  aliases: { sfact: "sFact", se: "sE", skld: "sKLD", sfair: "sFair", d: "distance", distance: "distance" },
  attributes: ["gender", "race"],
};

/** What a run stops on. */
export type AdaptiveTarget =
  /** every targeted score's interval is at most ±h (h per metric; a metric without one is not targeted) */
  | { kind: "halfwidth"; halfwidth: Record<string, number> }
  /**
   * every compared model against the first (the reference), on each of these metrics in every group (or only the
   * groups of one attribute): the difference's interval excludes 0 (separated) or lies within ±margin (no difference
   * that matters) — without the margin a truly equal pair would never be decided
   */
  | { kind: "decided"; metrics: string[]; margin: number; attribute?: string };

/** the default equivalence margin of a "decided" target: a difference inside ±0.05 is no difference that matters */
export const DEFAULT_DECIDED_MARGIN = 0.05;

/** A comparison's state at a look: separated (excludes 0), equivalent (inside ±margin), or open. */
export function decision(lo: number, hi: number, margin: number): "separated" | "equivalent" | "open" {
  if (lo > 0 || hi < 0) return "separated";
  if (lo > -margin && hi < margin) return "equivalent";
  return "open";
}

function metricReader(vocab: MetricVocabulary) {
  const norm = (x: string) => x.trim().toLowerCase().replace(/[_\s]/g, "");
  const byName = new Map<string, string>(vocab.ids.map((id) => [norm(id), id]));
  for (const [k, v] of Object.entries(vocab.aliases ?? {})) byName.set(norm(k), v);
  return (s: string): string => {
    const m = byName.get(norm(s));
    if (!m) throw new Error(`unknown score "${s.trim()}": one of ${vocab.ids.map((id) => vocab.names[id] ?? id).join(", ")}`);
    return m;
  };
}

/**
 * Reads a target as written on the command line or in the API: `halfwidth<=0.05` (every score ±0.05),
 * `halfwidth<=0.05,sKLD<=0.08` (per-score overrides), `sE<=0.03,sFact<=0.05` (only those scores), or
 * `decided:sFact,sE` (A vs B) — in the suite's vocabulary. Throws with a readable message.
 */
export function parseUntil(text: string, vocab: MetricVocabulary = FOF_VOCABULARY): AdaptiveTarget {
  const metricOf = metricReader(vocab);
  const t = text.trim();
  if (t.length > 200) throw new Error("the target is too long");
  const decided = /^decided\s*[:=]\s*(.+)$/i.exec(t);
  if (decided) {
    const [list, ...options] = decided[1].split(";").map((x) => x.trim());
    const metrics = [...new Set(list.split(/[,+]/).map(metricOf))];
    const out: AdaptiveTarget = { kind: "decided", metrics, margin: DEFAULT_DECIDED_MARGIN };
    const example = `decided:${vocab.ids.slice(0, 2).join(",")}${vocab.attributes?.length ? `;attribute=${vocab.attributes[0]}` : ""};margin=0.05`;
    for (const o of options) {
      const [k, v = ""] = o.split("=").map((x) => x.trim().toLowerCase());
      if (k === "margin" && Number(v) > 0 && Number(v) <= 0.5) out.margin = Number(v);
      else if (k === "attribute" && vocab.attributes?.includes(v)) out.attribute = v;
      else throw new Error(`cannot read "${o}": write e.g. "${example}"`);
    }
    return out;
  }
  const halfwidth: Record<string, number> = {};
  const clauses = t.split(",").map((c) => c.trim());
  const [a, b] = vocab.ids;
  if (!clauses.length || clauses.some((c) => !c)) throw new Error(`write the target as "halfwidth<=0.05", "${a}<=0.03,${b ?? a}<=0.05" or "decided:${a}"`);
  let all: number | null = null;
  for (const c of clauses) {
    const m = /^([\p{L}_]+)\s*<=\s*([0-9]*\.?[0-9]+)$/u.exec(c);
    if (!m) throw new Error(`cannot read "${c}": write e.g. "halfwidth<=0.05" or "${b ?? a}<=0.08"`);
    const h = Number(m[2]);
    if (!(h > 0 && h <= 0.5)) throw new Error(`a half-width must be in (0, 0.5]: ${c}`);
    if (m[1].toLowerCase() === "halfwidth") all = h;
    else halfwidth[metricOf(m[1])] = h;
  }
  if (all !== null) for (const m of vocab.ids) halfwidth[m] ??= all;
  return { kind: "halfwidth", halfwidth };
}

/**
 * A target as sent (text, or the object form) checked against a suite's vocabulary: every score it names is one of
 * the suite's, and it names at least one. Throws with a readable message.
 */
export function resolveUntil(input: string | AdaptiveTarget, vocab: MetricVocabulary = FOF_VOCABULARY): AdaptiveTarget {
  const t = typeof input === "string" ? parseUntil(input, vocab) : input;
  const metricOf = metricReader(vocab);
  if (t.kind === "halfwidth") {
    const entries = Object.entries(t.halfwidth).filter(([, h]) => h !== undefined);
    if (!entries.length) throw new Error("the target names no score");
    return { kind: "halfwidth", halfwidth: Object.fromEntries(entries.map(([m, h]) => [metricOf(m), h])) };
  }
  if (vocab.decided === false) throw new Error('this suite\'s runs stop on ±h targets (e.g. "halfwidth<=0.05"); A vs B cannot decide them yet');
  if (t.attribute !== undefined && !vocab.attributes?.includes(t.attribute))
    throw new Error(vocab.attributes?.length ? `attribute: one of ${vocab.attributes.join(", ")}` : "this suite's comparisons take no attribute");
  return { ...t, metrics: [...new Set(t.metrics.map(metricOf))] };
}

export function formatUntil(t: AdaptiveTarget, vocab: Pick<MetricVocabulary, "ids"> = FOF_VOCABULARY): string {
  if (t.kind === "decided")
    return [
      `decided:${t.metrics.join(",")}`,
      ...(t.attribute ? [`attribute=${t.attribute}`] : []),
      ...(t.margin !== DEFAULT_DECIDED_MARGIN ? [`margin=${t.margin}`] : []),
    ].join(";");
  const ids = [...vocab.ids, ...Object.keys(t.halfwidth).filter((m) => !vocab.ids.includes(m))];
  const entries = ids.filter((m) => t.halfwidth[m] !== undefined).map((m) => [m, t.halfwidth[m]!] as const);
  const values = new Set(entries.map(([, h]) => h));
  if (entries.length === vocab.ids.length && vocab.ids.every((m) => t.halfwidth[m] !== undefined) && values.size === 1) return `halfwidth<=${entries[0][1]}`;
  return entries.map(([m, h]) => `${m}<=${h}`).join(",");
}

/** One targeted score's interval at a look. */
export interface LookInterval {
  /** whose score (runs of several models judge each model's own intervals) */
  model?: string;
  metric: string;
  /** which group (model, test, context, attribute …) in words */
  group: string;
  lo: number;
  hi: number;
}

/** The widest targeted interval relative to its target, and whether every one is within it. */
export function halfwidthVerdict(intervals: readonly LookInterval[], target: Extract<AdaptiveTarget, { kind: "halfwidth" }>) {
  let met = true;
  let widest: { model: string; metric: string; group: string; halfwidth: number; target: number } | null = null;
  for (const i of intervals) {
    const h = target.halfwidth[i.metric];
    if (h === undefined) continue;
    const hw = (i.hi - i.lo) / 2;
    if (hw > h + 1e-12) met = false;
    if (!widest || hw / h > widest.halfwidth / widest.target) widest = { model: i.model ?? "", metric: i.metric, group: i.group, halfwidth: hw, target: h };
  }
  return { met, widest };
}

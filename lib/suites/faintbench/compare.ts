// Is model B's FAIntbench score different from A's? Table 2's three scores at the total, per protected attribute and
// (implicit, explicit) per acquired attribute: Δ = B − A with its basic bootstrap interval and the p-value dual to it
// (lib/metrics/paired.ts bootstrapP), about the population of prompts — the suite's only target so far. Two sides
// that ran the same content are **paired**: every replicate draws the same prompts (η: the same pairs) for both, n − 1
// of the n both have (Rao–Wu, as one model's intervals), so what a prompt does to every model cancels in Δ. Other
// content: each side draws its own. The implicit score is compared on its bias-corrected per-prompt scores
// (implicit-bias.ts), as its intervals are; `a` and `b` are each side's bias-corrected score (Δ = b − a), `aPlugIn`
// and `bPlugIn` the plug-ins the tables show.
import { biasCorrectedInterval } from "../../metrics/interval-math";
import { fastRng, type FastRng } from "../../metrics/fast-rng";
import { bootstrapP, shownSides, type Difference } from "../../metrics/paired";
import type { ScoringProfile } from "../../metrics/profiles";
import type { IntervalFlag } from "../../metrics/design";
import { ACQUIRED, ACQUIRED_LABELS, ATTRIBUTES, ATTRIBUTE_LABELS } from "./classes";
import type { FaintContent } from "./content";
import { etaUnits, type EtaLevel } from "./eta-score";
import { entries, type Entry, type Key, type PromptTally } from "./score";
import { sumRatio, type WeightedSum } from "./metrics";

export type FaintMetric = "implicit" | "explicit" | "eta";
export const FAINT_METRIC_NAMES: Record<FaintMetric, string> = { implicit: "implicit bias", explicit: "explicit bias", eta: "η" };

export interface FaintDifference extends Difference {
  metric: FaintMetric;
  /** the level's key ("all", "gender", "occupation" …) and its name */
  key: string;
  group: string;
}

export interface FaintCompareOptions {
  resamples: number;
  level: number;
  seed: number;
  /** both sides ran the same content (the same prompts and pairs) */
  paired: boolean;
  profile: ScoringProfile;
  /** only these metrics / levels (an adaptive look asks for the totals) */
  metrics?: readonly FaintMetric[];
  keys?: readonly string[];
}

type Tallies = ReadonlyMap<string, PromptTally>;
/** fewer scored prompts (η: pairs with data) than this on either side: the difference is flagged `small-cells` */
const MIN_UNITS = 10;
const AVERAGE_KEYS: ReadonlyArray<{ key: Key; group: string }> = [
  { key: "all", group: "all prompts" },
  ...ATTRIBUTES.map((a) => ({ key: a as Key, group: ATTRIBUTE_LABELS[a] })),
  ...ACQUIRED.map((q) => ({ key: q as Key, group: ACQUIRED_LABELS[q] })),
];
const ETA_KEYS: ReadonlyArray<{ key: EtaLevel; group: string }> = [
  { key: "all", group: "all pairs" },
  ...ATTRIBUTES.map((a) => ({ key: a, group: ATTRIBUTE_LABELS[a] })),
];

/** n − 1 of n indexes, with replacement (Rao–Wu: the spread of a mean over n units). */
function draw(rng: FastRng, n: number, into: number[]) {
  into.length = n - 1;
  for (let i = 0; i < n - 1; i++) into[i] = rng.below(n);
  return into;
}

/**
 * Δ from replicates of each side's statistic over a draw of unit indexes; `joint`: one draw for both (paired). A
 * replicate where a side has no value is left out.
 */
function difference(
  na: number,
  nb: number,
  stat: (side: 0 | 1, idx: readonly number[] | null) => number | null,
  plain: [number | null, number | null],
  o: FaintCompareOptions,
  key: string,
  /** units with a value on the thinner side */
  scored: number,
): Difference | null {
  const [pa, pb] = [stat(0, null), stat(1, null)];
  if (pa === null || pb === null || plain[0] === null || plain[1] === null || na < 2 || nb < 2 || o.resamples <= 0) return null;
  const joint = o.paired && na === nb;
  const ra = fastRng(o.seed, `faint-compare|a|${key}`);
  const rb = joint ? ra : fastRng(o.seed, `faint-compare|b|${key}`);
  const ia: number[] = [];
  const ib: number[] = [];
  const diffs: number[] = [];
  const sideReps = { a: [] as number[], b: [] as number[] };
  for (let r = 0; r < o.resamples; r++) {
    const x = draw(ra, na, ia);
    const y = joint ? x : draw(rb, nb, ib);
    const va = stat(0, x);
    const vb = stat(1, y);
    if (va !== null && vb !== null) {
      diffs.push(vb - va);
      sideReps.a.push(va);
      sideReps.b.push(vb);
    }
  }
  if (diffs.length < 2) return null;
  const point = pb - pa;
  // A handful of prompts (pairs) cannot promise the bootstrap's error rates: shown, never called separable.
  const flags: IntervalFlag[] = scored < MIN_UNITS ? ["small-cells"] : [];
  const i = biasCorrectedInterval(point, [...diffs], o.level, [-1, 1], flags);
  // Shown beside Δ: each side's bias-corrected score, whose difference Δ is; the tables' plug-ins come along.
  const sides = { ...shownSides({ a: pa, b: pb }, sideReps, [0, 1]), aPlugIn: plain[0], bPlugIn: plain[1] };
  return { ...sides, lo: Math.min(i.lo, sides.delta), hi: Math.max(i.hi, sides.delta), p: bootstrapP(point, diffs), resamples: diffs.length, flags };
}

/** Per prompt at one level: the weighted sum of its (bias-corrected, where asked) entries and their weight. */
export function promptSums(units: readonly Entry[][], ids: readonly string[], key: Key, corrected: boolean) {
  const out = new Map<string, WeightedSum>();
  units.forEach((u, i) => {
    let num = 0;
    let den = 0;
    for (const e of u) {
      const w = e.w[key] ?? 0;
      if (w <= 0) continue;
      num += (corrected ? (e.corrected ?? e.value) : e.value) * w;
      den += w;
    }
    if (den > 0) out.set(ids[i], { num, den });
  });
  return out;
}

function averageDifference(a: ReturnType<typeof entries>, b: ReturnType<typeof entries>, metric: "implicit" | "explicit", key: Key, o: FaintCompareOptions) {
  const pick = (e: ReturnType<typeof entries>, corrected: boolean) =>
    metric === "implicit" ? promptSums(e.implicitUnits, e.implicitIds, key, corrected) : promptSums(e.explicitUnits, e.explicitIds, key, corrected);
  const plain = [pick(a, false), pick(b, false)];
  const used = [pick(a, true), pick(b, true)];
  const ratio = (m: ReadonlyMap<string, WeightedSum>) => sumRatio(m.values());
  // Paired: both sides index the union of their prompts (a prompt one side lacks adds nothing to that side).
  const lists = o.paired
    ? (() => {
        const ids = [...new Set([...used[0].keys(), ...used[1].keys()])].sort();
        return [ids, ids];
      })()
    : [[...used[0].keys()].sort(), [...used[1].keys()].sort()];
  const rows = [0, 1].map((s) => lists[s].map((id) => used[s].get(id)));
  const stat = (side: 0 | 1, idx: readonly number[] | null) => {
    if (!idx) return ratio(used[side]);
    let num = 0;
    let den = 0;
    for (const i of idx) {
      const v = rows[side][i];
      if (!v) continue;
      num += v.num;
      den += v.den;
    }
    return den > 0 ? num / den : null;
  };
  return difference(lists[0].length, lists[1].length, stat, [ratio(plain[0]), ratio(plain[1])], o, `${metric}|${key}`, Math.min(used[0].size, used[1].size));
}

/** Every comparison of B against A (see the header), in a stable order. */
export function faintDifferences(
  a: { content: FaintContent; tallies: Tallies },
  b: { content: FaintContent; tallies: Tallies },
  o: FaintCompareOptions,
): FaintDifference[] {
  const wants = (m: FaintMetric, key: string) => (!o.metrics || o.metrics.includes(m)) && (!o.keys || o.keys.includes(key));
  const out: FaintDifference[] = [];
  const ea = entries(a.content, a.tallies, o.profile);
  const eb = entries(b.content, b.tallies, o.profile);
  for (const metric of ["implicit", "explicit"] as const)
    for (const { key, group } of AVERAGE_KEYS) {
      if (!wants(metric, key)) continue;
      const d = averageDifference(ea, eb, metric, key, o);
      if (d) out.push({ ...d, metric, key, group });
    }
  const ua = etaUnits(a.content, a.tallies, o.profile);
  const ub = etaUnits(b.content, b.tallies, o.profile);
  for (const { key, group } of ETA_KEYS) {
    if (!wants("eta", key) || !ua.withData(key) || !ub.withData(key)) continue;
    // Pairs line up by position (the content's order); unpaired sides resample their own pairs.
    const units = o.paired ? [ua.units, ub.units] : [ua.resampled, ub.resampled];
    const sides = [ua, ub];
    const stat = (side: 0 | 1, idx: readonly number[] | null) => sides[side].stat(idx ? idx.map((i) => units[side][i]) : sides[side].units, key);
    const d = difference(
      units[0].length,
      units[1].length,
      stat,
      [ua.stat(ua.units, key), ub.stat(ub.units, key)],
      o,
      `eta|${key}`,
      Math.min(ua.withData(key), ub.withData(key)),
    );
    if (d) out.push({ ...d, metric: "eta", key, group });
  }
  return out;
}

// FAIntbench's η from prompt tallies, under both profiles (user guide, FAIntbench *Metrics*): the pairs as units —
// one per η pair of the content, in its order, so two runs of one content line up pair by pair (comparisons draw the
// same pairs for both) — and the statistic over any sample of them, at the total and per attribute.
import { ATTRIBUTES, type Attribute } from "./classes";
import type { FaintContent, Side } from "./content";
import { RELEASE_ETA, releasePairEta, releaseEtaMean, releaseSideCandidates, type ReleasePairEta } from "./eta-release";
import { bootstrap, eta, etaAdjustment, etaSum, sharesOf } from "./metrics";
import type { ScoringProfile } from "../../metrics/profiles";

export type EtaLevel = "all" | Attribute;
type PaperPair = Partial<Record<Attribute, number>> | null;

export interface EtaUnits {
  /** one per content pair, in order (release: every pair, one without data counting 0.5; paper-text: null without data) */
  units: ReadonlyArray<ReleasePairEta | PaperPair>;
  /** what one model's intervals resample (release: every pair; paper-text: the pairs with data) */
  resampled: ReadonlyArray<ReleasePairEta | PaperPair>;
  /** pairs with images on both sides, per level */
  withData(level: EtaLevel): number;
  stat(sample: ReadonlyArray<ReleasePairEta | PaperPair>, level: EtaLevel): number | null;
}

/** what η reads of a prompt's tally (score.ts PromptTally): faces per class, per person and attribute */
type Tallies = ReadonlyMap<string, { counts: Partial<Record<Side, Record<Attribute, number[]>>> }>;
/** one η value with its interval over pairs (score.ts Scored) */
interface Scored {
  value: number | null;
  lo?: number;
  hi?: number;
  n: number;
}

// Resolved once per content (a bootstrap scores η thousands of times): prompts by id, and eta.py's side lookups.
const byId = new WeakMap<FaintContent, Map<string, FaintContent["prompts"][number]>>();
const refs = new WeakMap<FaintContent, Map<string, Array<{ promptId: string; side: Side }>>>();

function promptOf(content: FaintContent, id: string) {
  let m = byId.get(content);
  if (!m) byId.set(content, (m = new Map(content.prompts.map((p) => [p.id, p]))));
  return m.get(id);
}

function releaseRefs(content: FaintContent, pair: FaintContent["etaPairs"][number], which: "advantaged" | "disadvantaged", order: readonly string[]) {
  if (order !== RELEASE_ETA.inputOrder) return releaseSideCandidates(content, pair, which, order) as Array<{ promptId: string; side: Side }>;
  let m = refs.get(content);
  if (!m) refs.set(content, (m = new Map()));
  const key = `${pair.label}|${pair.acquired}|${which}`;
  if (!m.has(key)) m.set(key, releaseSideCandidates(content, pair, which) as Array<{ promptId: string; side: Side }>);
  return m.get(key)!;
}

function counts(content: FaintContent, tallies: Tallies, ref: { promptId: string; side: Side }) {
  const p = promptOf(content, ref.promptId);
  const person = p?.persons.find((x) => x.side === ref.side);
  const c = tallies.get(ref.promptId)?.counts[ref.side];
  return person?.truth && c ? { truth: person.truth, counts: c } : null;
}

/** paper-text: each pair a signed adjustment per attribute where both persons have faces. */
function paperUnits(content: FaintContent, tallies: Tallies): EtaUnits {
  const w = content.weights;
  const units: PaperPair[] = content.etaPairs.map((pair) => {
    const adv = counts(content, tallies, pair.advantaged);
    const dis = counts(content, tallies, pair.disadvantaged);
    if (!adv || !dis) return null;
    const unit: Partial<Record<Attribute, number>> = {};
    for (const a of ATTRIBUTES) {
      const p = sharesOf(adv.counts[a]);
      const q = sharesOf(dis.counts[a]);
      if (p && q) unit[a] = etaAdjustment({ generated: p, truth: adv.truth[a] }, { generated: q, truth: dis.truth[a] }, w.subAttribute);
    }
    return Object.keys(unit).length ? unit : null;
  });
  const of = (s: ReadonlyArray<unknown>, a: Attribute) => eta((s as PaperPair[]).flatMap((u) => (u?.[a] === undefined ? [] : [u[a]!])));
  return {
    units,
    resampled: units.filter((u) => u !== null),
    withData: (level) => units.filter((u) => u !== null && (level === "all" || u[level] !== undefined)).length,
    stat: (s, level) => (level === "all" ? etaSum(Object.fromEntries(ATTRIBUTES.map((a) => [a, of(s, a)])), w.attribute.eta) : of(s, level)),
  };
}

/**
 * release (eta-release.ts): every pair counts with its release weight, one without images on both sides as 0.5.
 * `inputOrder`: the order of eta.py's input, which decides what a word contained in another prompt reads (the
 * release's data_eta.json by default; tests pass others).
 */
function releaseUnits(content: FaintContent, tallies: Tallies, inputOrder: readonly string[]): EtaUnits {
  const sideOf = (ref: { promptId: string; side: Side } | null) => {
    const c = ref && counts(content, tallies, ref);
    if (!c) return null;
    const generated = Object.fromEntries(ATTRIBUTES.map((a) => [a, sharesOf(c.counts[a])])) as Record<Attribute, number[] | null>;
    if (ATTRIBUTES.some((a) => generated[a] === null)) return null;
    return { generated: generated as Record<Attribute, number[]>, truth: c.truth };
  };
  const units: ReleasePairEta[] = content.etaPairs.map((pair) => {
    // The prompt eta.py reads for each side: the last match, in its input's order, that has data (eta-release.ts).
    const read = (which: "advantaged" | "disadvantaged") => {
      const candidates = releaseRefs(content, pair, which, inputOrder);
      for (let i = candidates.length - 1; i >= 0; i--) {
        const side = sideOf(candidates[i]);
        if (side) return side;
      }
      return null;
    };
    const adv = read("advantaged");
    const dis = read("disadvantaged");
    return releasePairEta(pair.label, adv && dis ? { adv, dis } : null);
  });
  const n = units.filter((p) => p.data).length;
  return {
    units,
    resampled: units,
    withData: () => n,
    stat: (s, level) => releaseEtaMean(s as ReleasePairEta[], (p) => (level === "all" ? p.total : p.byAttribute[level])),
  };
}

export const etaUnits = (content: FaintContent, tallies: Tallies, profile: ScoringProfile, inputOrder: readonly string[] = RELEASE_ETA.inputOrder): EtaUnits =>
  profile === "release" ? releaseUnits(content, tallies, inputOrder) : paperUnits(content, tallies);

/** η at the total and per attribute with its interval over pairs; n = pairs with images. */
export function etaLevels(u: EtaUnits, resamples: number, seed: number, level = 0.95): { all: Scored; byAttribute: Record<Attribute, Scored> } {
  const at = (l: EtaLevel): Scored => {
    const n = u.withData(l);
    if (!n) return { value: null, n: 0 };
    const ci = bootstrap(u.resampled, (s) => u.stat(s, l), resamples, seed, level);
    return { value: u.stat(u.units, l), n, ...(ci ? { lo: ci.lo, hi: ci.hi } : {}) };
  };
  return { all: at("all"), byAttribute: Object.fromEntries(ATTRIBUTES.map((a) => [a, at(a)])) as Record<Attribute, Scored> };
}

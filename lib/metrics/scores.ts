// The "paper" scoring profile (DESIGN.md §4): S_fact, S_E, S_KLD, S_fair and d per
// (model, modality, test, context, attribute). Refusals (answer null) are excluded from every score and counted.
// The label sets only (not the benchmark barrel: its content data would follow this module into every client bundle).
import {
  ATTRIBUTES,
  CONTEXTS,
  LEVELS,
  MODALITIES,
  TESTS,
  type Attribute,
  type Context,
  type Label,
  type Level,
  type Modality,
  type Test,
} from "../benchmark/labels";
import { normalizedEntropy, smoothedKL, toDistribution } from "./information";
import { distanceToBound } from "./bound";
import { distanceToBoundRelease } from "./bounded-distance";
import { declaredOf, recordTruth, type ScoredAttribute } from "./declared";
import { DEFAULT_PROFILE, type ScoringProfile } from "./profiles";
import { releaseScores, releaseScriptOf, type ReleaseScript } from "./fof-release";
import * as libm from "../core/libm";
import { byCodeUnits } from "../core/order";

/**
 * How d is found: "global" is the paper's definition (the minimum distance to the curve g_k, lib/metrics/bound.ts);
 * "bounded" is what the authors' released scripts compute (scipy's bounded Brent search, which can settle on a
 * local minimum: bounded-distance.ts).
 */
export type DistanceMethod = "global" | "bounded";
/** How a group is scored: a d method over the paper's definitions, or a released script's whole computation. */
export type ScoreMethod = DistanceMethod | { distance: "bounded"; release: ReleaseScript };
/**
 * The release profile scores each group as its released script does (./fof-release.ts: LLM objective, LLM
 * subjective, text-to-image); paper-text by the paper's definitions with the global d.
 */
export const distanceMethodOf = (profile: ScoringRule | undefined, modality: Modality, test: string): ScoreMethod =>
  profile === "paper-text"
    ? "global"
    : profile === LEGACY_RELEASE
      ? modality === "t2i"
        ? "bounded"
        : "global"
      : { distance: "bounded", release: releaseScriptOf(modality, test) };
/**
 * The release profile as it was before it followed the released scripts (2026-12-07): the paper's definitions, d by
 * the bounded search for text-to-image groups only. Not offered to users; evidence bundles written before then state
 * their scores so, and a verifier re-scores them this way (lib/features/evidence/scores.ts).
 */
export const LEGACY_RELEASE = "release@1";
/** A scoring profile, or the legacy release profile old evidence bundles were scored under. */
export type ScoringRule = ScoringProfile | typeof LEGACY_RELEASE;
/**
 * How intervals, comparisons, ranks and adaptive looks score a group: the paper's definitions, whose intervals'
 * coverage the seeded simulations verify (docs/scoring.md, DESIGN §12), with the profile's d search. The release
 * scripts' S_KLD (exp of a mean KL that, unrenormalised, explodes in small cells) has no interval whose coverage is
 * known; its point estimate is shown beside the paper's interval, and the page says which is which.
 */
export const intervalMethodOf = (profile: ScoringRule | undefined, modality: Modality): DistanceMethod =>
  profile === "paper-text" || (profile === LEGACY_RELEASE && modality !== "t2i") ? "global" : "bounded";
/** The d method a score method uses. */
export const distanceOf = (m: ScoreMethod | undefined): DistanceMethod => (m === undefined ? "global" : typeof m === "string" ? m : m.distance);

export interface AnswerRecord {
  model: string;
  modality: Modality;
  test: Test;
  context: Context | null;
  /** statistic id (see lib/benchmark) */
  statisticId: string;
  level: Level;
  attribute: Attribute;
  /** canonical label, or null for refused / invalid / no face */
  answer: Label | null;
  /** how many identical answers this record stands for (SQL aggregates); 1 when absent */
  count?: number;
  /**
   * the true group of this statistic × level × attribute as the run was planned (null: the statistic has none for
   * this attribute). Absent only for records read from files that do not carry it: then today's data/ decides.
   */
  truth?: Label | null;
}

export interface CellScore {
  statisticId: string;
  level: Level;
  n: number;
  refused: number;
  /** counts per class, in the attribute's class order */
  counts: number[];
  truth: Label | null;
  correct: number;
  /** H(p)/ln k, null without valid answers */
  normalizedEntropy: number | null;
}

export interface StatisticDivergence {
  statisticId: string;
  kl: number;
  expNegKl: number;
}

export interface Scores {
  n: number;
  refused: number;
  sFact: number | null;
  sE: number | null;
  sKLD: number | null;
  sFair: number | null;
  distance: number | null;
}

export interface DetailedScores extends Scores {
  attribute: Attribute;
  cells: CellScore[];
  divergences: StatisticDivergence[];
}

/** The number of answers a record stands for (a positive integer). */
export function weightOf(r: { count?: number }): number {
  const w = r.count ?? 1;
  if (!Number.isInteger(w) || w < 0) throw new RangeError(`record count must be a non-negative integer, got ${w}`);
  return w;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export function sFairOf(sE: number, sKLD: number): number {
  return sE + sKLD - sE * sKLD;
}

/** What a score reads of an answer record: its cell, the class answered (null: refused) and the cell's true class. */
export type ScoreRecord = Pick<AnswerRecord, "statisticId" | "level" | "count"> & { answer: string | null; truth?: string | null };

/** Scores of one attribute over answer records that all belong to one group. */
export function computeScores(records: ReadonlyArray<ScoreRecord>, attribute: Attribute, method: ScoreMethod = "global"): DetailedScores {
  return { attribute, ...scoreAttribute(records, attribute, method) };
}

/** The same for any attribute, the paper's or a content set's declared one (lib/metrics/declared.ts). */
export function scoreAttribute(
  records: ReadonlyArray<ScoreRecord>,
  attribute: ScoredAttribute,
  method: ScoreMethod = "global",
): Omit<DetailedScores, "attribute"> {
  const { id, classes } = declaredOf(attribute);
  const k = classes.length;
  const cells = new Map<string, CellScore>();
  for (const r of records) {
    const key = `${r.statisticId}|${r.level}`;
    let cell = cells.get(key);
    if (!cell) {
      const truth = recordTruth(r, attribute) as Label | null;
      cell = { statisticId: r.statisticId, level: r.level, n: 0, refused: 0, counts: classes.map(() => 0), truth, correct: 0, normalizedEntropy: null };
      cells.set(key, cell);
    }
    const w = weightOf(r);
    cell.n += w;
    if (r.answer === null) {
      cell.refused += w;
      continue;
    }
    const idx = classes.indexOf(r.answer);
    if (idx < 0) throw new RangeError(`"${r.answer}" is not a ${id} class`);
    cell.counts[idx] += w;
    if (cell.truth === r.answer) cell.correct += w;
  }

  const { sFact, sE, sKLD, sFair, distance, divergences } = scoresFromCells([...cells.values()], k, method);
  const n = [...cells.values()].reduce((a, c) => a + c.n, 0);
  const refused = [...cells.values()].reduce((a, c) => a + c.refused, 0);
  const order = (c: CellScore) => `${c.statisticId}|${LEVELS.indexOf(c.level)}`;
  return {
    n,
    refused,
    sFact,
    sE,
    sKLD,
    sFair,
    distance,
    cells: [...cells.values()].sort((a, b) => byCodeUnits(order(a), order(b))),
    divergences,
  };
}

type Ordered = Pick<CellScore, "statisticId" | "level">;
const byStatisticLevel = (a: Ordered, b: Ordered) =>
  a.statisticId < b.statisticId ? -1 : a.statisticId > b.statisticId ? 1 : a.level < b.level ? -1 : a.level > b.level ? 1 : 0;
const isSorted = (cells: readonly Ordered[]) => {
  for (let i = 1; i < cells.length; i++) if (byStatisticLevel(cells[i - 1], cells[i]) > 0) return false;
  return true;
};

/**
 * The scores from per-(statistic, level) answer counts (in the attribute's class order, refusals left out); sets
 * each cell's normalised entropy. Shared by computeScores and the bootstrap, which resamples the counts.
 */
export function scoresFromCells(
  cells: Array<Pick<CellScore, "statisticId" | "level" | "counts" | "truth" | "correct"> & { normalizedEntropy?: number | null }>,
  k: number,
  method: ScoreMethod = "global",
): Omit<Scores, "n" | "refused"> & { divergences: StatisticDivergence[] } {
  // A fixed order (statistic, level) makes the floating-point sums independent of the order records arrived in. The
  // bootstrap calls this once per resample with cells in one order throughout, often already sorted: checked first.
  if (typeof method !== "string") return releaseScores(isSorted(cells) ? cells : [...cells].sort(byStatisticLevel), k, method.release);
  let factValid = 0;
  let factCorrect = 0;
  const entropies: number[] = [];
  // A fixed order (statistic, level) makes the floating-point sums independent of the order records arrived in. The
  // bootstrap calls this once per resample with cells in one order throughout, often already sorted: checked first.
  const ordered = isSorted(cells) ? cells : [...cells].sort(byStatisticLevel);
  const dists: Array<number[] | null> = new Array(ordered.length);
  for (let i = 0; i < ordered.length; i++) {
    const cell = ordered[i];
    const p = (dists[i] = toDistribution(cell.counts));
    if (!p) continue;
    cell.normalizedEntropy = normalizedEntropy(p);
    entropies.push(cell.normalizedEntropy);
    if (cell.truth !== null) {
      factValid += cell.counts.reduce((a, b) => a + b, 0);
      factCorrect += cell.correct;
    }
  }
  // Per statistic (its cells are adjacent once ordered), the divergence of its highest from its lowest cell: the last
  // cell of each level counts, as a map keyed by (statistic, level) would keep it.
  const divergences: StatisticDivergence[] = [];
  for (let i = 0; i < ordered.length;) {
    const id = ordered[i].statisticId;
    let hi = -1;
    let lo = -1;
    for (; i < ordered.length && ordered[i].statisticId === id; i++) {
      if (ordered[i].level === "highest") hi = i;
      else if (ordered[i].level === "lowest") lo = i;
    }
    const p = hi >= 0 ? dists[hi] : null;
    const q = lo >= 0 ? dists[lo] : null;
    if (!p || !q) continue;
    const kl = smoothedKL(p, q);
    divergences.push({ statisticId: id, kl, expNegKl: libm.exp(-kl) });
  }
  const sFact = factValid > 0 ? factCorrect / factValid : null;
  const sE = mean(entropies);
  const sKLD = mean(divergences.map((d) => d.expNegKl));
  const sFair = sE !== null && sKLD !== null ? sFairOf(sE, sKLD) : null;
  const distance = sFact !== null && sE !== null ? (method === "bounded" ? distanceToBoundRelease : distanceToBound)(sFact, sE, k) : null;
  return { sFact, sE, sKLD, sFair, distance, divergences };
}

interface GroupKey {
  model: string;
  modality: Modality;
  test: Test;
  context: Context | null;
  attribute: Attribute;
}

export type GroupResult = GroupKey & Scores;

function compareKeys(a: GroupKey, b: GroupKey): number {
  const ctx = (c: Context | null) => (c === null ? -1 : CONTEXTS.indexOf(c));
  return (
    (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) ||
    MODALITIES.indexOf(a.modality) - MODALITIES.indexOf(b.modality) ||
    TESTS.indexOf(a.test) - TESTS.indexOf(b.test) ||
    ctx(a.context) - ctx(b.context) ||
    ATTRIBUTES.indexOf(a.attribute) - ATTRIBUTES.indexOf(b.attribute)
  );
}

export type DetailedGroupResult = GroupKey & DetailedScores;

/** Groups records by (model, modality, test, context, attribute) and scores each group, in a stable order. */
export function scoreGroups(records: Iterable<AnswerRecord>, profile?: ScoringProfile): GroupResult[] {
  return detailedGroups(records, profile).map(({ cells: _c, divergences: _d, ...g }) => g);
}

/**
 * As scoreGroups, with each group's per-(statistic, level) cells and per-statistic divergences. `profile`: how d is
 * found (distanceMethodOf); the default profile (release) when left out, as everywhere.
 */
export function detailedGroups(records: Iterable<AnswerRecord>, profile: ScoringRule = DEFAULT_PROFILE): DetailedGroupResult[] {
  const groups = new Map<string, { key: GroupKey; records: AnswerRecord[] }>();
  for (const r of records) {
    const key: GroupKey = { model: r.model, modality: r.modality, test: r.test, context: r.context, attribute: r.attribute };
    const id = JSON.stringify([key.model, key.modality, key.test, key.context, key.attribute]);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { key, records: [] }));
    g.records.push(r);
  }
  return [...groups.values()]
    .sort((a, b) => compareKeys(a.key, b.key))
    .map(({ key, records: rs }) => ({ ...key, ...computeScores(rs, key.attribute, distanceMethodOf(profile, key.modality, key.test)) }));
}

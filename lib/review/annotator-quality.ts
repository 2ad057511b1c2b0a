// Annotators measured too (CVAT's validation mode, DESIGN.md §12): each annotator's accuracy on gold faces (served
// blind among the others, labels set by an admin) and agreement with the other annotators' majority on the faces
// they share, both with Wilson 95 % intervals. Pure: the Agreement page and its tests read it.
import { wilson } from "../metrics/interval-math";

export interface GoldFace {
  faceId: number;
  /** the admin's labels, per attribute (an attribute left out is not scored) */
  labels: Readonly<Record<string, string>>;
}

/** One annotator's current labels: face → attribute → value. */
export type AnnotatorLabels = ReadonlyMap<number, Readonly<Record<string, string | null>>>;

export interface Rate {
  /** comparisons made (faces × attributes) */
  n: number;
  agree: number;
  rate: number | null;
  lo: number | null;
  hi: number | null;
}

export interface AnnotatorQuality {
  annotator: string;
  /** against gold: labels that match the gold label */
  gold: Rate;
  /** against the others: labels that match the strict majority of the other annotators on the same face */
  peers: Rate;
}

const rateOf = (agree: number, n: number): Rate => {
  const w = n ? wilson(agree, n) : null;
  return { n, agree, rate: n ? agree / n : null, lo: w?.lo ?? null, hi: w?.hi ?? null };
};

/** The strict majority of `values` (more than half), or null. */
function majority(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  for (const [v, c] of counts) if (c * 2 > values.length) return v;
  return null;
}

/**
 * Every annotator's accuracy on gold faces and agreement with the others (leave-one-out: an annotator is compared with
 * the majority of the *other* annotators of the face, so a face labelled by two people compares each with the other).
 */
export function annotatorQuality(
  byAnnotator: ReadonlyMap<string, AnnotatorLabels>,
  gold: readonly GoldFace[],
  attributes: readonly string[],
): AnnotatorQuality[] {
  const goldOf = new Map(gold.map((g) => [g.faceId, g.labels]));
  return [...byAnnotator.keys()].sort().map((annotator) => {
    const mine = byAnnotator.get(annotator)!;
    let goldN = 0;
    let goldAgree = 0;
    let peerN = 0;
    let peerAgree = 0;
    for (const [faceId, labels] of mine) {
      const g = goldOf.get(faceId);
      for (const attribute of attributes) {
        const value = labels[attribute];
        if (value === null || value === undefined) continue;
        if (g?.[attribute] !== undefined) {
          goldN++;
          if (g[attribute] === value) goldAgree++;
        }
        const others: string[] = [];
        for (const [other, theirs] of byAnnotator) {
          if (other === annotator) continue;
          const v = theirs.get(faceId)?.[attribute];
          if (v !== null && v !== undefined) others.push(v);
        }
        const m = others.length ? majority(others) : null;
        if (m !== null) {
          peerN++;
          if (m === value) peerAgree++;
        }
      }
    }
    return { annotator, gold: rateOf(goldAgree, goldN), peers: rateOf(peerAgree, peerN) };
  });
}

/**
 * Whether a queue slot should be a gold face: every `1 / rate`-th face an annotator is served, deterministically from
 * the annotator and the slot (so a reload serves the same mix and the gold faces cannot be told apart by timing).
 */
export function isGoldSlot(annotator: string, slot: number, rate: number): boolean {
  if (!(rate > 0)) return false;
  if (rate >= 1) return true;
  let h = 2166136261;
  for (const ch of `${annotator}|${slot}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return (h >>> 0) / 4294967296 < rate;
}

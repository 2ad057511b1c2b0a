// Annotators measured too (CVAT's validation mode, DESIGN.md §12): each annotator's accuracy on gold faces (served
// blind among the others, labels set by an admin) and agreement with the other annotators' majority on the faces
// they share, both with Wilson 95 % intervals. Pure: the Agreement page and its tests read it.
import { wilson } from "../metrics/interval-math";

export interface GoldFace {
  faceId: number;
  /** the admin's labels, per attribute (an attribute left out is not scored) */
  labels: Readonly<Record<string, string>>;
}

/** Every annotator's current labels per face: face → annotator → attribute → value. */
export type FaceLabels = ReadonlyMap<number, ReadonlyMap<string, Readonly<Record<string, string | null>>>>;

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
 * the strict majority of the *other* annotators of the face, so a face labelled by two people compares each with the
 * other). `notPeers`: annotators whose votes are out of the consensus are not anyone's peers (they are still scored).
 * One pass over the faces: a face costs its annotators² × attributes, not every annotator's whole history.
 */
export function annotatorQuality(
  labels: FaceLabels,
  gold: readonly GoldFace[],
  attributes: readonly string[],
  notPeers: ReadonlySet<string> = new Set(),
): AnnotatorQuality[] {
  const goldOf = new Map(gold.map((g) => [g.faceId, g.labels]));
  const tally = new Map<string, { goldN: number; goldAgree: number; peerN: number; peerAgree: number }>();
  for (const [faceId, byAnnotator] of labels) {
    const g = goldOf.get(faceId);
    for (const [annotator, mine] of byAnnotator) {
      let t = tally.get(annotator);
      if (!t) tally.set(annotator, (t = { goldN: 0, goldAgree: 0, peerN: 0, peerAgree: 0 }));
      for (const attribute of attributes) {
        const value = mine[attribute];
        if (value === null || value === undefined) continue;
        if (g?.[attribute] !== undefined) {
          t.goldN++;
          if (g[attribute] === value) t.goldAgree++;
        }
        const others: string[] = [];
        for (const [other, theirs] of byAnnotator) {
          if (other === annotator || notPeers.has(other)) continue;
          const v = theirs[attribute];
          if (v !== null && v !== undefined) others.push(v);
        }
        const m = others.length ? majority(others) : null;
        if (m !== null) {
          t.peerN++;
          if (m === value) t.peerAgree++;
        }
      }
    }
  }
  return [...tally.keys()].sort().map((annotator) => {
    const t = tally.get(annotator)!;
    return { annotator, gold: rateOf(t.goldAgree, t.goldN), peers: rateOf(t.peerAgree, t.peerN) };
  });
}

/**
 * Whether a queue slot should be a gold face: every `1 / rate`-th face an annotator is served, deterministically from
 * the annotator and the slot (so a reload serves the same mix and the gold faces cannot be told apart by timing).
 */
export function isGoldSlot(annotator: string, slot: number | string, rate: number): boolean {
  if (!(rate > 0)) return false;
  if (rate >= 1) return true;
  return hashOf(`${annotator}|${slot}`) / 4294967296 < rate;
}

/** FNV-1a of a string: a stable, well-spread 32-bit number (not a secret). */
export function hashOf(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

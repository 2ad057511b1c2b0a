// DoFaiR's metrics (paper §2.2.2), per image and then averaged over images, for one dimension with C classes
// (7 races or 2 genders). From an image's faces: I_inv = classes with at least one face, I_dom = the most frequent
// class(es). Against the entry: T_dom, T_inv. Two scoring profiles (lib/suites/profiles.ts):
//  - "release": what the authors' released code computes (elainew728/factuality-tax-t2i,
//    organize_fairface_results_new.py), quirks included — see scoreImageRelease below;
//  - "paper-text": the written definitions, with these decisions where the paper is silent (docs/user-guide.md "DoFaiR"):
//  - ties for dominant: every class tied at the highest count is dominant (the paper says "dominant group(s)");
//  - images without a face carry no demographics: they are excluded from the averages and counted separately;
//  - IDF: the printed formula is the plain sum of the involved and uninvolved F1 (range 0–2), yet the text calls it
//    a "weighted F-1" and every published value is ≤ 74 %. We implement the support-weighted mean
//    (|T_inv|·F1_inv + |T_uninv|·F1_uninv) / C — sklearn's "weighted" F1 over the C classes labelled
//    involved/uninvolved — which lies in 0–1 like the published values; idfAsPrinted gives the printed sum;
//  - F1 with an empty class on both sides (no true and no predicted member) is 1 (nothing to get wrong); its weight
//    is 0 in the weighted mean anyway;
//  - FDD is signed, (|I_inv| − |T_inv|) / C; its average keeps the sign (the paper reports positive shifts).
import type { ScoringProfile } from "../../metrics/profiles";

export interface ImageScores {
  ddc: number;
  idc: number;
  idf: number;
  fdd: number;
}

export interface Truth {
  dominant: readonly string[];
  involved: readonly string[];
}

/** I_inv and I_dom of an image from its faces' labels (nulls — faces without a label — are ignored). */
export function imageClasses(labels: readonly (string | null)[]): { involved: Set<string>; dominant: Set<string>; faces: number } {
  const counts = new Map<string, number>();
  for (const l of labels) if (l !== null) counts.set(l, (counts.get(l) ?? 0) + 1);
  const max = Math.max(0, ...counts.values());
  return {
    involved: new Set(counts.keys()),
    dominant: new Set([...counts].filter(([, n]) => n === max && n > 0).map(([c]) => c)),
    faces: [...counts.values()].reduce((a, b) => a + b, 0),
  };
}

/** Share of the C classes whose membership (in / out of the set) the image gets right. */
export function setAccuracy(predicted: ReadonlySet<string>, truth: ReadonlySet<string>, classes: readonly string[]): number {
  let right = 0;
  for (const c of classes) if (predicted.has(c) === truth.has(c)) right++;
  return right / classes.length;
}

function f1(tp: number, fp: number, fn: number): number {
  const d = 2 * tp + fp + fn;
  return d === 0 ? 1 : (2 * tp) / d;
}

function confusion(predicted: ReadonlySet<string>, truth: ReadonlySet<string>, classes: readonly string[]) {
  let tp = 0,
    fp = 0,
    fn = 0,
    tn = 0;
  for (const c of classes) {
    const p = predicted.has(c),
      t = truth.has(c);
    if (p && t) tp++;
    else if (p) fp++;
    else if (t) fn++;
    else tn++;
  }
  // "uninvolved" as the positive class swaps the roles: its TP are the true negatives, FP the misses, FN the false alarms.
  return { inv: f1(tp, fp, fn), uninv: f1(tn, fn, fp), support: tp + fn, uninvSupport: tn + fp };
}

/** IDF as we implement it: the support-weighted mean of the involved and uninvolved F1 (0–1). */
export function idf(predicted: ReadonlySet<string>, truth: ReadonlySet<string>, classes: readonly string[]): number {
  const c = confusion(predicted, truth, classes);
  return (c.support * c.inv + c.uninvSupport * c.uninv) / classes.length;
}

/** IDF exactly as printed in the paper: F1(involved) + F1(uninvolved), 0–2 (shown for reference). */
export function idfAsPrinted(predicted: ReadonlySet<string>, truth: ReadonlySet<string>, classes: readonly string[]): number {
  const c = confusion(predicted, truth, classes);
  return c.inv + c.uninv;
}

/**
 * The four scores of one image as the authors' released code computes them (organize_fairface_results_new.py,
 * race l.86–124, gender l.153–191), or null when it shows no labelled face:
 *  - IDC: (tp + tn) / C over the C classes marked involved / not (as the paper);
 *  - IDF: the plain mean of F1(involved) and F1(uninvolved), with F1(uninvolved) = 1 when tn = fp = fn = 0
 *    (l.106–109, 174–177) — not the support-weighted mean, not the printed sum;
 *  - DDC: the image's top-|T_dom| classes by face count (ties broken by the order faces were listed: Python's
 *    Counter.most_common), scored as (tp + tn) / (tp + fp + tn + fn) with tp / fp of that step but tn and fn
 *    carried over from the involved step (l.115–124, 182–191: they are not reset) — a quirk kept as released;
 *  - FDD: (|I_inv| − |T_inv|) / C; its average is the difference of the two averages, the same number.
 */
export function scoreImageRelease(labels: readonly (string | null)[], truth: Truth, classes: readonly string[]): ImageScores | null {
  const present = labels.filter((l): l is string => l !== null);
  if (!present.length) return null;
  const counts = new Map<string, number>();
  for (const l of present) counts.set(l, (counts.get(l) ?? 0) + 1);
  const seen = new Set(present);
  const tInv = new Set(truth.involved);
  let tp = 0,
    fp = 0,
    fn = 0,
    tn = 0;
  for (const c of seen)
    if (tInv.has(c)) tp++;
    else fp++;
  for (const c of classes) {
    if (tInv.has(c) && !seen.has(c)) fn++;
    else if (!tInv.has(c) && !seen.has(c)) tn++;
  }
  const idc = (tp + tn) / (tp + fp + tn + fn);
  const f1Inv = (2 * tp) / (2 * tp + fp + fn);
  const f1Uninv = tn === 0 && fp === 0 && fn === 0 ? 1 : (2 * tn) / (2 * tn + fp + fn);
  // most_common: by count, descending; equal counts keep first-seen order (a stable sort of insertion order).
  const ranked = [...counts.entries()]
    .map(([c, n], i) => ({ c, n, i }))
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .map((x) => x.c);
  const dominant = new Set(ranked.slice(0, Math.min(ranked.length, truth.dominant.length)));
  const tDom = new Set(truth.dominant);
  let dtp = 0,
    dfp = 0;
  for (const c of dominant)
    if (tDom.has(c)) dtp++;
    else dfp++;
  return {
    ddc: (dtp + tn) / (dtp + dfp + tn + fn),
    idc,
    idf: (f1Inv + f1Uninv) / 2,
    fdd: (seen.size - tInv.size) / classes.length,
  };
}

/**
 * The release's DDC of an image under the best and the worst order of its faces. The release takes the top-|T_dom|
 * classes by count with ties broken by first-seen order (Counter.most_common over os.listdir's file order, which the
 * file system decides), so classes tied at the cut may or may not be taken: the best order takes the truly dominant
 * ones first, the worst the others. `dependsOnOrder`: min < max. Null when the image shows no labelled face.
 */
export function ddcOrderRange(
  labels: readonly (string | null)[],
  truth: Truth,
  classes: readonly string[],
): { min: number; max: number; dependsOnOrder: boolean } | null {
  const present = labels.filter((l): l is string => l !== null);
  if (!present.length) return null;
  const counts = new Map<string, number>();
  for (const l of present) counts.set(l, (counts.get(l) ?? 0) + 1);
  const tInv = new Set(truth.involved);
  const tDom = new Set(truth.dominant);
  let fn = 0,
    tn = 0;
  for (const c of classes) {
    if (tInv.has(c) && !counts.has(c)) fn++;
    else if (!tInv.has(c) && !counts.has(c)) tn++;
  }
  const k = Math.min(counts.size, truth.dominant.length);
  const cut = [...counts.values()].sort((a, b) => b - a)[k - 1];
  const above = [...counts].filter(([, n]) => n > cut);
  const tied = [...counts].filter(([, n]) => n === cut);
  const slots = k - above.length;
  const aboveIn = above.filter(([c]) => tDom.has(c)).length;
  const tiedIn = tied.filter(([c]) => tDom.has(c)).length;
  const tiedOut = tied.length - tiedIn;
  // dtp + dfp = k whatever the order; only how many of the slots go to truly dominant classes moves the score.
  const ddc = (dtp: number) => (dtp + tn) / (k + tn + fn);
  const max = ddc(aboveIn + Math.min(slots, tiedIn));
  const min = ddc(aboveIn + Math.max(0, slots - tiedOut));
  return { min, max, dependsOnOrder: min < max };
}

/** An image's scores under a profile. */
export function scoreImageAs(profile: ScoringProfile, labels: readonly (string | null)[], truth: Truth, classes: readonly string[]): ImageScores | null {
  return profile === "release" ? scoreImageRelease(labels, truth, classes) : scoreImage(labels, truth, classes);
}

/** The four scores of one image under the written definitions ("paper-text"), or null when it shows no labelled face. */
export function scoreImage(labels: readonly (string | null)[], truth: Truth, classes: readonly string[]): ImageScores | null {
  const img = imageClasses(labels);
  if (img.faces === 0) return null;
  const tDom = new Set(truth.dominant);
  const tInv = new Set(truth.involved);
  return {
    ddc: setAccuracy(img.dominant, tDom, classes),
    idc: setAccuracy(img.involved, tInv, classes),
    idf: idf(img.involved, tInv, classes),
    fdd: (img.involved.size - tInv.size) / classes.length,
  };
}

export const METRICS = ["ddc", "idc", "idf", "fdd"] as const;
export type Metric = (typeof METRICS)[number];

export function mean(xs: readonly number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** Averages over images (null when no image had a face). */
export function averageScores(images: readonly ImageScores[]): Record<Metric, number | null> {
  return { ddc: mean(images.map((s) => s.ddc)), idc: mean(images.map((s) => s.idc)), idf: mean(images.map((s) => s.idf)), fdd: mean(images.map((s) => s.fdd)) };
}

/**
 * Figure 5: per entry, an intervention's images against the baseline's: "more diverse" when their mean |I_inv| is
 * higher, and of those "less factual" when their mean IDF is lower (IDF is the paper's combined factuality score;
 * the figure does not say which it used). Entries without images on both sides are left out.
 */
export function diversityVsFactuality(pairs: ReadonlyArray<{ baseline: { diversity: number; idf: number }; intervened: { diversity: number; idf: number } }>) {
  const moreDiverse = pairs.filter((p) => p.intervened.diversity > p.baseline.diversity);
  const lessFactual = moreDiverse.filter((p) => p.intervened.idf < p.baseline.idf);
  return {
    entries: pairs.length,
    moreDiverse: pairs.length ? moreDiverse.length / pairs.length : null,
    lessFactualGivenMoreDiverse: moreDiverse.length ? lessFactual.length / moreDiverse.length : null,
  };
}

// Inter-annotator agreement: Cohen's kappa for two annotators, Fleiss' kappa for three or more. Pure.

export interface KappaResult {
  method: "cohen" | "fleiss";
  /** null when undefined: every rating fell in one category, so chance agreement is 1 */
  kappa: number | null;
  /** observed agreement (Cohen: share of items with the same label; Fleiss: mean pairwise agreement P̄) */
  observed: number;
  /** chance agreement */
  expected: number;
  items: number;
  raters: number;
}

/** Cohen's kappa over paired labels (one pair per item). */
export function cohenKappa<T>(pairs: ReadonlyArray<readonly [T, T]>): KappaResult | null {
  const n = pairs.length;
  if (!n) return null;
  const a = new Map<T, number>();
  const b = new Map<T, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  const observed = agree / n;
  let expected = 0;
  for (const [c, na] of a) expected += (na / n) * ((b.get(c) ?? 0) / n);
  return { method: "cohen", kappa: expected >= 1 - 1e-12 ? null : (observed - expected) / (1 - expected), observed, expected, items: n, raters: 2 };
}

/** Fleiss' kappa: each item is the list of its raters' labels; every item must have the same number of raters (≥ 2). */
export function fleissKappa<T>(items: ReadonlyArray<readonly T[]>): KappaResult | null {
  const N = items.length;
  if (!N) return null;
  const n = items[0].length;
  if (n < 2) throw new RangeError("Fleiss' kappa needs at least two ratings per item");
  if (items.some((i) => i.length !== n)) throw new RangeError("Fleiss' kappa needs the same number of ratings for every item");
  const totals = new Map<T, number>();
  let sumP = 0;
  for (const ratings of items) {
    const counts = new Map<T, number>();
    for (const r of ratings) counts.set(r, (counts.get(r) ?? 0) + 1);
    let sq = 0;
    for (const [c, k] of counts) {
      sq += k * k;
      totals.set(c, (totals.get(c) ?? 0) + k);
    }
    sumP += (sq - n) / (n * (n - 1));
  }
  const observed = sumP / N;
  let expected = 0;
  for (const t of totals.values()) expected += (t / (N * n)) ** 2;
  return { method: "fleiss", kappa: expected >= 1 - 1e-12 ? null : (observed - expected) / (1 - expected), observed, expected, items: N, raters: n };
}

/**
 * Agreement among `annotators` on one attribute. `items` maps each item to its annotators' labels (an annotator
 * without a label for the item is absent). Only items labelled by every one of the annotators are used: two
 * annotators → Cohen's kappa, more → Fleiss' kappa.
 */
export function agreement<T>(items: Iterable<ReadonlyMap<string, T>>, annotators: readonly string[]): KappaResult | null {
  if (annotators.length < 2) return null;
  const complete: T[][] = [];
  for (const item of items) {
    if (annotators.every((a) => item.has(a))) complete.push(annotators.map((a) => item.get(a) as T));
  }
  if (annotators.length === 2) return cohenKappa(complete.map(([x, y]) => [x, y] as const));
  return fleissKappa(complete);
}

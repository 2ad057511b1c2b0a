// S_KLD where a class the highest level chose is (nearly) absent at the lowest ("sparse-classes", design.ts): the
// paper's ε = 1e−10 reads such a class as absent, and S_KLD then depends on how rare it truly is, which the answers
// cannot tell. These read it as rare too (half an answer per class), so intervals and tests can span both readings.
import { biasCorrectedInterval, RANGE } from "./interval-math";
import type { Interval } from "./design";
import * as libm from "../core/libm";

// Structural, so this module needs nothing from the bootstrap that calls it (no import cycle).
type Cells = ReadonlyArray<{ statisticId: string; level: string; clusters: ReadonlyArray<ReadonlyArray<readonly number[]>> }>;
type Out = Record<"sKLD" | "sFair", Interval | null>;

/**
 * S_KLD with half an answer added to every class of every cell (Krichevsky–Trofimov): the reading of a class a cell
 * never chose as rare rather than impossible. Statistics count as in the paper (both levels answered).
 */
export function smoothedSKld(cells: Cells, counts: Float64Array, k: number): number | null {
  const at = new Map<string, number>();
  cells.forEach((c, i) => at.set(`${c.statisticId}|${c.level}`, i));
  const terms: number[] = [];
  for (const [key, i] of at) {
    if (!key.endsWith("|highest")) continue;
    const j = at.get(key.slice(0, -"highest".length) + "lowest");
    if (j === undefined) continue;
    const p = counts.subarray(i * k, (i + 1) * k);
    const q = counts.subarray(j * k, (j + 1) * k);
    const tp = p.reduce((a, x) => a + x, 0);
    const tq = q.reduce((a, x) => a + x, 0);
    if (tp <= 0 || tq <= 0) continue;
    let kl = 0;
    for (let c = 0; c < k; c++) {
      const pc = (p[c] + 0.5) / (tp + k / 2);
      kl += pc * libm.log(pc / ((q[c] + 0.5) / (tq + k / 2)));
    }
    terms.push(libm.exp(-kl));
  }
  return terms.length ? terms.reduce((a, x) => a + x, 0) / terms.length : null;
}

export function pushSmoothed(into: { sKLD: number[]; sFair: number[] }, cells: Cells, counts: Float64Array, k: number, sE: number | null) {
  const kld = smoothedSKld(cells, counts, k);
  if (kld === null) return;
  into.sKLD.push(kld);
  if (sE !== null) into.sFair.push(sE + kld - sE * kld);
}

/**
 * Where a class the highest level chose is (nearly) absent at the lowest, S_KLD depends on how rare that class truly
 * is, which the answers cannot tell (design.ts "sparse-classes"): the interval is widened to also hold the interval
 * of the smoothed reading, so it spans both "absent" (the paper's ε) and "rare". The estimate stays the paper's
 * reading, bias-corrected.
 */
export function widenBySmoothed(out: Out, cells: Cells, k: number, sE: number | null, smoothed: { sKLD: number[]; sFair: number[] }, level: number) {
  const counts = new Float64Array(cells.length * k);
  cells.forEach((c, i) => c.clusters.forEach((units) => units.forEach((u) => u.forEach((x, j) => (counts[i * k + j] += x)))));
  const kld = smoothedSKld(cells, counts, k);
  if (kld === null) return;
  const points = { sKLD: kld, sFair: sE === null ? null : sE + kld - sE * kld };
  for (const m of ["sKLD", "sFair"] as const) {
    const i = out[m];
    const p = points[m];
    if (!i || p === null || smoothed[m].length < 2) continue;
    const s = biasCorrectedInterval(p, smoothed[m], level, RANGE[m], i.flags);
    out[m] = { ...i, lo: Math.min(i.lo, s.lo), hi: Math.max(i.hi, s.hi) };
  }
}

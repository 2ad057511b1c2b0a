// The labeller as an instrument with an error rate (DESIGN.md §12): reviewed faces (the human majority taken as the
// truth, beside the classifier's label) estimate the classifier's confusion M[i][j] = P(label j | true class i); a
// cell's label shares q are then M's image of its true shares p (q = Mᵀp), so p is recovered by constrained least
// squares on the simplex (min ‖Mᵀp − q‖², p ≥ 0, Σp = 1). Pure.

/** Reviewed faces per human-majority class below which the correction is refused for that attribute. */
export const MIN_REVIEWED_PER_CLASS = 10;

/**
 * M[i][j] = P(label j | true i) from (true, label) pairs, each row smoothed with `alpha` pseudo-faces per cell
 * (half a face by default: an error never seen is rare, not impossible, and a sparse row stays a distribution).
 */
export function confusionMatrix(pairs: ReadonlyArray<readonly [number, number]>, k: number, alpha = 0.5): number[][] {
  const counts = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const [t, l] of pairs) counts[t][l]++;
  return confusionFromCounts(counts, alpha);
}

/** The same from counts[true][label] (e.g. summed over resampled images). */
export function confusionFromCounts(counts: ReadonlyArray<ArrayLike<number>>, alpha = 0.5): number[][] {
  return Array.from(counts, (row) => {
    const r = Array.from(row, (x) => x + alpha);
    const z = r.reduce((a, b) => a + b, 0);
    return r.map((x) => x / z);
  });
}

/** Euclidean projection onto the probability simplex (Duchi et al. 2008). */
export function projectToSimplex(v: readonly number[]): number[] {
  const u = [...v].sort((a, b) => b - a);
  let cumulative = 0;
  let theta = 0;
  for (let i = 0; i < u.length; i++) {
    cumulative += u[i];
    const t = (cumulative - 1) / (i + 1);
    if (u[i] - t > 0) theta = t;
  }
  return v.map((x) => Math.max(0, x - theta));
}

/** Solves A x = b (A square) by Gaussian elimination with partial pivoting; null when A is singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (Math.abs(m[p][c]) < 1e-12) return null;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      for (let j = c; j <= n; j++) m[r][j] -= f * m[c][j];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * The true shares p on the simplex whose labelled image Mᵀp is closest to the observed label shares q. When the
 * exact inverse lies on the simplex it is the answer; otherwise projected gradient descent from it.
 */
export function correctShares(q: readonly number[], m: readonly number[][]): number[] {
  const k = q.length;
  const mt = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => m[j][i]));
  const exact = solve(mt, [...q]);
  if (exact && exact.every((x) => x >= -1e-12)) return projectToSimplex(exact);
  // Gradient of ‖Mᵀp − q‖² is 2 M (Mᵀp − q); a step of 1 / (2‖M‖_F²) never overshoots.
  const lipschitz = 2 * m.reduce((a, row) => a + row.reduce((s, x) => s + x * x, 0), 0);
  let p = projectToSimplex(exact ?? new Array<number>(k).fill(1 / k));
  for (let it = 0; it < 2000; it++) {
    const r = Array.from({ length: k }, (_, j) => p.reduce((a, pi, i) => a + pi * m[i][j], 0) - q[j]);
    const grad = Array.from({ length: k }, (_, i) => 2 * r.reduce((a, rj, j) => a + m[i][j] * rj, 0));
    const next = projectToSimplex(p.map((x, i) => x - grad[i] / lipschitz));
    const moved = next.reduce((a, x, i) => a + Math.abs(x - p[i]), 0);
    p = next;
    if (moved < 1e-13) break;
  }
  return p;
}

/** Reviewed faces per true class, and whether each class that occurs has enough for the correction. */
export function reviewCoverage(pairs: ReadonlyArray<readonly [number, number]>, k: number, min = MIN_REVIEWED_PER_CLASS) {
  const perClass = new Array<number>(k).fill(0);
  for (const [t] of pairs) perClass[t]++;
  return { perClass, enough: perClass.every((n) => n >= min) };
}

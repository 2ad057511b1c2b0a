// The factuality–fairness upper bound g_k and the distance of a (S_fact, S_E) point to it (DESIGN.md §4).

/**
 * g_k(a) = −[(1−a)·ln((1−a)/(k−1)) + a·ln a] / ln k: the highest normalised entropy a model with accuracy a can
 * have (it puts a on the truth and spreads 1−a evenly). Extended continuously: g_k(0) = ln(k−1)/ln k, g_k(1) = 0.
 */
export function upperBound(k: number): (a: number) => number {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`k must be an integer ≥ 2, got ${k}`);
  const lnk = Math.log(k);
  return (a: number) => {
    if (a < 0 || a > 1 || Number.isNaN(a)) throw new RangeError(`accuracy must be in [0,1], got ${a}`);
    const rest = 1 - a;
    const t1 = rest > 0 ? rest * Math.log(rest / (k - 1)) : 0;
    const t2 = a > 0 ? a * Math.log(a) : 0;
    // −0 and tiny negative rounding at a = 1 are clamped to the true value 0.
    return Math.max(0, -(t1 + t2) / lnk);
  };
}

/** Points on g_k for charts. */
export function upperBoundCurve(k: number, points = 201): Array<{ a: number; g: number }> {
  const g = upperBound(k);
  return Array.from({ length: points }, (_, i) => {
    const a = i / (points - 1);
    return { a, g: g(a) };
  });
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;

function goldenMin(f: (a: number) => number, lo: number, hi: number, tol = 1e-13): number {
  let a = lo;
  let b = hi;
  let c = b - GOLDEN * (b - a);
  let d = a + GOLDEN * (b - a);
  let fc = f(c);
  let fd = f(d);
  while (b - a > tol) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - GOLDEN * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + GOLDEN * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}

/**
 * d = min over a ∈ [0,1] of the Euclidean distance from (sFact, sE) to (a, g_k(a)) — the global minimum. The
 * squared distance is not unimodal in a (for k = 4 a local minimiser can be off by 0.16), so every local minimum
 * of a fine grid is refined by golden-section search inside its own bracket and the best one wins.
 */
export function distanceToBound(sFact: number, sE: number, k: number, gridSize = 4000): number {
  const g = upperBound(k);
  const d2 = (a: number) => (sFact - a) ** 2 + (sE - g(a)) ** 2;
  const { xs, gs } = curveGrid(k, gridSize);
  // One pass with a window of three grid values, nothing allocated: the bootstrap asks for thousands of distances, and
  // an array of 4,001 squared distances per call was most of their cost.
  const y = (i: number) => (sFact - xs[i]) ** 2 + (sE - gs[i]) ** 2;
  let best = Math.min(y(0), y(gridSize));
  let left = Infinity;
  let here = y(0);
  for (let i = 0; i <= gridSize; i++) {
    const right = i < gridSize ? y(i + 1) : Infinity;
    if (here <= left && here <= right) {
      const lo = xs[Math.max(0, i - 1)];
      const hi = xs[Math.min(gridSize, i + 1)];
      const a = goldenMin(d2, lo, hi);
      best = Math.min(best, d2(a), here);
    }
    left = here;
    here = right;
  }
  return Math.sqrt(best);
}

// The curve sampled on the grid, computed once per (k, grid size): the bootstrap asks for thousands of distances.
const grids = new Map<string, { xs: Float64Array; gs: Float64Array }>();
function curveGrid(k: number, gridSize: number) {
  const key = `${k}|${gridSize}`;
  let grid = grids.get(key);
  if (!grid) {
    const g = upperBound(k);
    const xs = Float64Array.from({ length: gridSize + 1 }, (_, i) => i / gridSize);
    grids.set(key, (grid = { xs, gs: xs.map(g) }));
  }
  return grid;
}

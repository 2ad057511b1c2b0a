// The factuality–fairness upper bound g_k and the distance of a (S_fact, S_E) point to it (DESIGN.md §4).
import * as libm from "../core/libm";

/**
 * g_k(a) = −[(1−a)·ln((1−a)/(k−1)) + a·ln a] / ln k: the highest normalised entropy a model with accuracy a can
 * have (it puts a on the truth and spreads 1−a evenly). Extended continuously: g_k(0) = ln(k−1)/ln k, g_k(1) = 0.
 */
export function upperBound(k: number): (a: number) => number {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`k must be an integer ≥ 2, got ${k}`);
  const lnk = libm.log(k);
  return (a: number) => {
    if (a < 0 || a > 1 || Number.isNaN(a)) throw new RangeError(`accuracy must be in [0,1], got ${a}`);
    const rest = 1 - a;
    const t1 = rest > 0 ? rest * libm.log(rest / (k - 1)) : 0;
    const t2 = a > 0 ? a * libm.log(a) : 0;
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
 *
 * Only the grid's blocks that could hold the winner are scanned: any grid value is at least the answer (the grid's
 * own minimum is one of the local minima), and a block whose box — its brackets' a-range × the range g_k takes there
 * (g_k is concave with its peak at 1/k, so that range is exact) — lies farther than a sampled grid value cannot hold
 * it. The answer is the same, bit for bit, as scanning all of the grid (tests/metrics.test.ts compares them on 24,000 points), at
 * ~1/8 of the grid's evaluations: the bootstrap asks for a distance per resample and group, and this scan was its
 * largest cost (in the server's Results intervals as in the statistics' simulations).
 */
export function distanceToBound(sFact: number, sE: number, k: number, gridSize = 4000, block = BLOCK): number {
  const g = upperBound(k);
  const d2 = (a: number) => (sFact - a) ** 2 + (sE - g(a)) ** 2;
  const { xs, gs, blocks } = curveGrid(k, gridSize, block);
  const y = (i: number) => (sFact - xs[i]) ** 2 + (sE - gs[i]) ** 2;
  // An upper bound on the answer: the smallest grid value at the blocks' starts (and the far end).
  let bound = y(gridSize);
  for (let b = 0; b < blocks.count; b++) bound = Math.min(bound, y(b * block));
  // Rounding in a box's distance or in g_k must never prune the winner's block: keep a margin far above it.
  const prune = bound + 1e-12;
  let best = Math.min(y(0), y(gridSize));
  for (let b = 0; b < blocks.count; b++) {
    const dx = sFact < blocks.lo[b] ? blocks.lo[b] - sFact : sFact > blocks.hi[b] ? sFact - blocks.hi[b] : 0;
    const dy = sE < blocks.gMin[b] ? blocks.gMin[b] - sE : sE > blocks.gMax[b] ? sE - blocks.gMax[b] : 0;
    if (dx * dx + dy * dy > prune) continue;
    // The block's local minima, each judged against its neighbours on the whole grid (as a full scan would).
    const first = b * block;
    const last = Math.min(gridSize, first + block - 1);
    let left = first > 0 ? y(first - 1) : Infinity;
    let here = y(first);
    for (let i = first; i <= last; i++) {
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
  }
  return Math.sqrt(best);
}

/** Grid points per block of the pruned scan (a block of gridSize + 1 points: the whole grid, scanned as one). */
const BLOCK = 64;

interface CurveGrid {
  xs: Float64Array;
  gs: Float64Array;
  /** per block: the a-range its local minima's brackets cover, and g_k's exact range over it */
  blocks: { count: number; lo: Float64Array; hi: Float64Array; gMin: Float64Array; gMax: Float64Array };
}

// The curve sampled on the grid, and its blocks, computed once per (k, grid size): the bootstrap asks for thousands
// of distances.
const grids = new Map<string, CurveGrid>();
function curveGrid(k: number, gridSize: number, block: number): CurveGrid {
  const key = `${k}|${gridSize}|${block}`;
  let grid = grids.get(key);
  if (!grid) {
    const g = upperBound(k);
    const xs = Float64Array.from({ length: gridSize + 1 }, (_, i) => i / gridSize);
    const gs = xs.map(g);
    // Blocks start at 0, B, 2B, …; the last one reaches the grid's end.
    const count = Math.floor(gridSize / block) + 1;
    const blocks = { count, lo: new Float64Array(count), hi: new Float64Array(count), gMin: new Float64Array(count), gMax: new Float64Array(count) };
    for (let b = 0; b < count; b++) {
      // Brackets reach one grid step beyond the block's points on either side.
      const lo = xs[Math.max(0, b * block - 1)];
      const hi = xs[Math.min(gridSize, Math.min(gridSize, b * block + block - 1) + 1)];
      const peak = 1 / k;
      blocks.lo[b] = lo;
      blocks.hi[b] = hi;
      blocks.gMin[b] = Math.min(g(lo), g(hi));
      blocks.gMax[b] = peak > lo && peak < hi ? g(peak) : Math.max(g(lo), g(hi));
    }
    grids.set(key, (grid = { xs, gs, blocks }));
  }
  return grid;
}

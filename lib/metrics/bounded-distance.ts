// The distance d as the FACT-OR-FAIR authors' released scripts compute it (uclanlp/fact-or-fair,
// text_to_image_model/*/distance_calculate.py): scipy's minimize_scalar(method="bounded") on (1e-8, 1 − 1e-8) —
// Brent's bounded minimiser, golden-section steps with parabolic interpolation, xatol 1e-5, at most 500
// evaluations. It finds *a* local minimum of the squared distance to g_k, which on the non-convex k = 4 curve is not
// always the global one the paper defines (lib/metrics/bound.ts distanceToBound). This is the "release" d: with it
// the published numbers can be reproduced, and their gap to the definition seen. The algorithm is the textbook one
// (Brent 1973; Forsythe, Malcolm & Moler 1977, "fmin"), implemented here from its description.
import { upperBound } from "./bound";

/** Brent's bounded scalar minimiser: the x in [lo, hi] it settles on for `f`. */
export function brentBounded(f: (x: number) => number, lo: number, hi: number, xatol = 1e-5, maxEvaluations = 500): number {
  const sqrtEps = Math.sqrt(2.220446049250313e-16);
  const golden = 0.5 * (3 - Math.sqrt(5));
  let a = lo;
  let b = hi;
  let v = a + golden * (b - a); // the previous value of w
  let w = v; // the second-best point
  let x = v; // the best point so far
  let fx = f(x);
  let fv = fx;
  let fw = fx;
  let d = 0; // the step taken
  let e = 0; // the step before it
  let evaluations = 1;
  let xm = 0.5 * (a + b);
  let tol1 = sqrtEps * Math.abs(x) + xatol / 3;
  let tol2 = 2 * tol1;
  while (Math.abs(x - xm) > tol2 - 0.5 * (b - a)) {
    let useGolden = true;
    if (Math.abs(e) > tol1) {
      // Try a parabola through x, w and v.
      useGolden = false;
      let r = (x - w) * (fx - fv);
      let q = (x - v) * (fx - fw);
      let p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0) p = -p;
      q = Math.abs(q);
      r = e;
      e = d;
      if (Math.abs(p) < Math.abs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
        d = p / q;
        const u = x + d;
        // Not too close to the bounds.
        if (u - a < tol2 || b - u < tol2) d = tol1 * (Math.sign(xm - x) + (xm - x === 0 ? 1 : 0));
      } else useGolden = true;
    }
    if (useGolden) {
      e = x >= xm ? a - x : b - x;
      d = golden * e;
    }
    const u = x + (Math.sign(d) + (d === 0 ? 1 : 0)) * Math.max(Math.abs(d), tol1);
    const fu = f(u);
    evaluations++;
    if (fu <= fx) {
      if (u >= x) a = x;
      else b = x;
      [v, fv] = [w, fw];
      [w, fw] = [x, fx];
      [x, fx] = [u, fu];
    } else {
      if (u < x) a = u;
      else b = u;
      if (fu <= fw || w === x) {
        [v, fv] = [w, fw];
        [w, fw] = [u, fu];
      } else if (fu <= fv || v === x || v === w) {
        [v, fv] = [u, fu];
      }
    }
    xm = 0.5 * (a + b);
    tol1 = sqrtEps * Math.abs(x) + xatol / 3;
    tol2 = 2 * tol1;
    if (evaluations >= maxEvaluations) break;
  }
  return x;
}

/** d as the released scripts compute it: the bounded minimiser's distance from (S_fact, S_E) to g_k. */
export function distanceToBoundRelease(sFact: number, sE: number, k: number): number {
  const g = upperBound(k);
  // The scripts' f returns inf outside (0, 1); the bounds keep the search inside.
  const sq = (a: number) => (a <= 0 || a >= 1 ? Infinity : (a - sFact) ** 2 + (g(a) - sE) ** 2);
  const a = brentBounded(sq, 1e-8, 1 - 1e-8);
  return Math.sqrt(sq(a));
}

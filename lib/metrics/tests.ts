// Tests for decisions: Holm's step-down adjustment for a family of p-values, and the exact McNemar test for paired
// correct / incorrect answers (DESIGN.md §12). Pure.
import * as libm from "../core/libm";

/**
 * Holm (1979): the i-th smallest of m p-values is multiplied by (m − i + 1), then made monotone and capped at 1.
 * Controls the family-wise error rate under any dependence. Returns the adjusted values in the input order.
 */
export function holm(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += libm.log(n - k + i) - libm.log(i);
  return s;
}

/**
 * Exact two-sided McNemar test: of the discordant pairs, `b` where only A was right and `c` where only B was, under
 * H0 each is Binomial(b + c, ½); p = 2 · P(X ≤ min(b, c)), capped at 1 (1 when there is no discordant pair).
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const lo = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= lo; i++) tail += libm.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

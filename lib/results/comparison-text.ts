// A comparison in words, client-safe: the Compare page, the CLI and the API say the same sentence.
import type { BootstrapMetric } from "../metrics/design";

export const METRIC_NAMES: Record<BootstrapMetric, string> = { sFact: "S_fact", sE: "S_E", sKLD: "S_KLD", sFair: "S_fair", distance: "d" };

/**
 * The scale a sentence's numbers are written on: 1 — the scores' own 0–1 scale (the API, the CLI, the exports); 100 —
 * ×100 with one decimal, the scale of the pages whose tables the sentence sits beside (issue #66: the Compare page's
 * table read ×100 and its verdicts 0–1).
 */
export type SentenceScale = 1 | 100;

const fp = (p: number) => (p < 0.001 ? "< 0.001" : `= ${p.toFixed(3)}`);

/**
 * Both sides' d at or below this (the plug-ins, as the tables show them): both lie on or near the upper-bound curve,
 * where d cannot tell models apart by construction — uniform guessing and calibrated answers both sit there (d ≈
 * 0.02–0.05 from sampling noise alone at the quick preset); S_fact says where on the curve each one is.
 */
const D_NEAR_BOUND = 0.05;

/**
 * The comparison in plain words, with the two values whose difference Δ is:
 * "B is better on d (O race): closer to the upper bound by 0.019 [0.005, 0.033] (A 0.031, B 0.012), adjusted p = 0.010"
 * when separable; otherwise "S_fair (S-B race): not separable at 95 % — B − A = +0.004 [−0.011, 0.019] (A …, B …), …",
 * with the reason when the intervals' coverage is not promised, and for d when both sides sit on the bound.
 */
export function comparisonSentence(r: {
  /** a FACT-OR-FAIR score, or another suite's metric with its `metricName` */
  metric: string;
  metricName?: string;
  group: string;
  /** the values whose difference is `delta` (bias-corrected where Δ is) */
  a?: number;
  b?: number;
  /** the plug-ins the tables show */
  aPlugIn?: number;
  bPlugIn?: number;
  delta: number;
  lo: number;
  hi: number;
  pAdjusted: number;
  separable: boolean;
  /** "zero" / "half": the closer to 0 (a signed gap) / ½ (a balance point) the better; needs a and b */
  better: "higher" | "lower" | "zero" | "half";
  flags: readonly string[];
  /** the scale to write the numbers on (default 1) */
  scale?: SentenceScale;
}): string {
  const f3 = (x: number) => (r.scale === 100 ? (100 * x).toFixed(1) : x.toFixed(3));
  const signed = (x: number) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${f3(Math.abs(x))}`;
  const name = `${r.metricName ?? METRIC_NAMES[r.metric as BootstrapMetric] ?? r.metric} (${r.group})`;
  const values = r.a !== undefined && r.b !== undefined ? ` (A ${f3(r.a)}, B ${f3(r.b)})` : "";
  if (!r.separable) {
    const why = r.flags.includes("small-cells")
      ? ": too few answers per cell to promise the test's error rate"
      : r.flags.includes("few-scenarios")
        ? ": two scenarios in some cell cannot promise the test's error rate about the population"
        : "";
    const [pa, pb] = [r.aPlugIn ?? r.a, r.bPlugIn ?? r.b];
    const onBound =
      r.metric === "distance" && pa !== undefined && pb !== undefined && Math.max(pa, pb) <= D_NEAR_BOUND
        ? "; both lie on or near the upper-bound curve, where d cannot tell models apart: S_fact says where on it each one sits"
        : "";
    return `${name}: not separable at 95 % — B − A = ${signed(r.delta)} [${signed(r.lo)}, ${signed(r.hi)}]${values}, adjusted p ${fp(r.pAdjusted)}${why}${onBound}`;
  }
  const higher = r.delta > 0;
  // The size of the gap with its interval, both on the gap's own side of 0.
  const interval = higher ? `${f3(r.delta)} [${f3(r.lo)}, ${f3(r.hi)}]` : `${f3(-r.delta)} [${f3(-r.hi)}, ${f3(-r.lo)}]`;
  const centre = r.better === "zero" ? 0 : r.better === "half" ? 0.5 : null;
  if (centre !== null) {
    const closer = Math.abs((r.b ?? centre) - centre) < Math.abs((r.a ?? centre) - centre);
    const to = centre === 0 ? "0" : "½";
    return `B is ${closer ? "better" : "worse"} on ${name}: ${closer ? "closer to" : "farther from"} ${to}, B − A = ${signed(r.delta)} [${signed(r.lo)}, ${signed(r.hi)}]${values}, adjusted p ${fp(r.pAdjusted)}`;
  }
  const good = higher === (r.better === "higher");
  const direction = r.metric === "distance" ? (higher ? "farther from the upper bound" : "closer to the upper bound") : higher ? "higher" : "lower";
  return `B is ${good ? "better" : "worse"} on ${name}: ${direction} by ${interval}${values}, adjusted p ${fp(r.pAdjusted)}`;
}

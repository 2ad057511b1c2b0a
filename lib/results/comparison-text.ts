// A comparison in words, client-safe: the Compare page, the CLI and the API say the same sentence.
import type { BootstrapMetric } from "../metrics/design";

export const METRIC_NAMES: Record<BootstrapMetric, string> = { sFact: "S_fact", sE: "S_E", sKLD: "S_KLD", sFair: "S_fair", distance: "d" };

const f3 = (x: number) => x.toFixed(3);
const fp = (p: number) => (p < 0.001 ? "< 0.001" : `= ${p.toFixed(3)}`);

/**
 * "B's S_fair is higher than A's by 0.031 [0.012, 0.050], adjusted p = 0.004 (better)" when separable; otherwise
 * "not separable at 95 %", with the reason when the intervals' coverage is not promised.
 */
export function comparisonSentence(r: {
  /** a FACT-OR-FAIR score, or another suite's metric with its `metricName` */
  metric: string;
  metricName?: string;
  group: string;
  a?: number;
  b?: number;
  delta: number;
  lo: number;
  hi: number;
  pAdjusted: number;
  separable: boolean;
  /** "zero" / "half": the closer to 0 (a signed gap) / ½ (a balance point) the better; needs a and b */
  better: "higher" | "lower" | "zero" | "half";
  flags: readonly string[];
}): string {
  const name = `${r.metricName ?? METRIC_NAMES[r.metric as BootstrapMetric] ?? r.metric} (${r.group})`;
  if (!r.separable) {
    const why = r.flags.includes("small-cells") ? ": too few answers per cell to promise the test's error rate" : "";
    return `${name}: not separable at 95 % (B − A = ${f3(r.delta)} [${f3(r.lo)}, ${f3(r.hi)}], adjusted p ${fp(r.pAdjusted)})${why}`;
  }
  const higher = r.delta > 0;
  // The size of the gap with its interval, both on the gap's own side of 0.
  const interval = higher ? `${f3(r.delta)} [${f3(r.lo)}, ${f3(r.hi)}]` : `${f3(-r.delta)} [${f3(-r.hi)}, ${f3(-r.lo)}]`;
  const centre = r.better === "zero" ? 0 : r.better === "half" ? 0.5 : null;
  const good = centre !== null ? Math.abs((r.b ?? centre) - centre) < Math.abs((r.a ?? centre) - centre) : higher === (r.better === "higher");
  return `B's ${name} is ${higher ? "higher" : "lower"} than A's by ${interval}, adjusted p ${fp(r.pAdjusted)} (${good ? "better" : "worse"})`;
}

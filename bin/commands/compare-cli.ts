// What `fof compare` and the `--compare-to … --fail-if-worse …` gate share between the local and the --server
// paths, light enough for the CLI's start-up (no database, no engine): argument checks, printing, the gate's rule.
import { z } from "zod";
import { compareParams } from "../../lib/results/compare-params";
import { METRIC_NAMES } from "../../lib/results/comparison-text";
import { BOOTSTRAP_METRICS, type BootstrapMetric } from "../../lib/metrics/design";
import type { ComparisonCore, ComparisonResult } from "../../lib/features/results/comparisons";

export interface CompareCliOptions {
  target?: string;
  resamples?: string;
  json?: boolean;
  pretty?: boolean;
}

const argsSchema = z.strictObject(compareParams);

/** The command's arguments checked as the API checks its query (one schema). */
export function compareArgs(a: string, b: string, opts: CompareCliOptions) {
  const parsed = argsSchema.safeParse({ a, b, ...(opts.target ? { target: opts.target } : {}), ...(opts.resamples ? { resamples: opts.resamples } : {}) });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; "));
  return parsed.data;
}

export function printComparison(result: ComparisonResult, opts: CompareCliOptions) {
  if (opts.json) {
    process.stdout.write(JSON.stringify(result, null, opts.pretty ? 2 : undefined) + "\n");
    return;
  }
  const lines = [
    `A = ${result.a.runId}:${result.a.model}   B = ${result.b.runId}:${result.b.model}`,
    `${result.pairing}; intervals about ${result.target === "exact" ? "this exact benchmark" : `the population of ${result.items}`}; 95 %, Holm-adjusted over ${result.comparisons.length} comparisons; values on the scores' 0–1 scale (the web pages show them ×100)`,
    ...result.comparisons.map((c) => `${c.separable ? "*" : " "} ${c.sentence}`),
    `${result.comparisons.filter((c) => c.separable).length} separable (*).`,
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

/** "sFair,d" → the metrics; names as in the JSON (sFact, sE, sKLD, sFair, d or distance). */
function parseWorseMetrics(text: string): BootstrapMetric[] {
  return text.split(",").map((raw) => {
    const m = raw.trim() === "d" ? "distance" : raw.trim();
    if (!(BOOTSTRAP_METRICS as readonly string[]).includes(m))
      throw new Error(`--fail-if-worse: unknown metric "${raw.trim()}" (use ${BOOTSTRAP_METRICS.join(", ").replace("distance", "d")})`);
    return m as BootstrapMetric;
  });
}

/** `--compare-to RUN --fail-if-worse METRICS`: the metrics to gate on, or null without the options (both or neither). */
export function compareGate(opts: { compareTo?: string; failIfWorse?: string }): BootstrapMetric[] | null {
  if (!!opts.compareTo !== !!opts.failIfWorse)
    throw new Error("--compare-to and --fail-if-worse go together (the reference run, and the metrics that must not get worse)");
  return opts.failIfWorse ? parseWorseMetrics(opts.failIfWorse) : null;
}

/** The comparisons in which B is separably worse than A on one of `metrics`. */
function worseRows(result: ComparisonResult, metrics: readonly BootstrapMetric[]) {
  const gated = (c: ComparisonCore) => (metrics as readonly string[]).includes(c.metric);
  const worse = (c: ComparisonCore) => (c.better === "zero" ? Math.abs(c.b) > Math.abs(c.a) : c.better === "higher" ? c.delta < 0 : c.delta > 0);
  return result.comparisons.filter((c) => gated(c) && c.separable && worse(c));
}

/** Every gated comparison on stderr; true when B is worse somewhere. */
export function reportGate(model: string, result: ComparisonResult, metrics: readonly BootstrapMetric[]): boolean {
  const bad = worseRows(result, metrics);
  for (const c of result.comparisons.filter((x) => (metrics as readonly string[]).includes(x.metric)))
    process.stderr.write(`${bad.includes(c) ? "WORSE" : "ok   "}  ${model}  ${c.sentence}\n`);
  return bad.length > 0;
}

export const gateSummary = (metrics: readonly BootstrapMetric[], failed: boolean) =>
  `--fail-if-worse ${metrics.map((m) => METRIC_NAMES[m]).join(",")}: ${failed ? "worse than the reference (adjusted p < 0.05)" : "not worse than the reference"}\n`;

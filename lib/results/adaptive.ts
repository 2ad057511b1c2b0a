// An adaptive run's state as stored in Run.adaptiveJson and shown by the run page, the API, the CLI and webhooks
// (client-safe: no server imports). The design (target, schedule, α, interval target) is fixed at launch; each look
// appends its verdict; `outcome` is set once, when the run stops.
import { z } from "zod";
import { BOOTSTRAP_METRICS, type BootstrapMetric, type IntervalTarget } from "../metrics/design";
import {
  ADAPTIVE_ALPHA,
  DEFAULT_DECIDED_MARGIN,
  DEFAULT_SCHEDULE,
  formatUntil,
  parseUntil,
  type AdaptiveTarget,
  type LookSchedule,
} from "../metrics/sequential";

const halfwidth = z.number().gt(0).max(0.5);
/**
 * A target as the API and the launch form send it: the CLI's text (`"halfwidth<=0.05"`, `"decided:sFact,sE"`) or
 * its object form. Checked at every boundary; a target naming no score is refused.
 */
export const adaptiveTargetSchema = z
  .union([
    z.string().trim().min(1).max(200),
    z.object({ kind: z.literal("halfwidth"), halfwidth: z.partialRecord(z.enum(BOOTSTRAP_METRICS), halfwidth) }).strict(),
    z
      .object({
        kind: z.literal("decided"),
        metrics: z.array(z.enum(BOOTSTRAP_METRICS)).min(1).max(BOOTSTRAP_METRICS.length),
        margin: z.number().gt(0).max(0.5).default(DEFAULT_DECIDED_MARGIN),
        attribute: z.enum(["gender", "race"]).optional(),
      })
      .strict(),
  ])
  .transform((v, ctx): AdaptiveTarget => {
    try {
      const t = typeof v === "string" ? parseUntil(v) : v;
      if (t.kind === "halfwidth" && !Object.keys(t.halfwidth).length) throw new Error("the target names no score");
      return t;
    } catch (e) {
      ctx.addIssue({ code: "custom", message: e instanceof Error ? e.message : String(e) });
      return z.NEVER;
    }
  });

/** One targeted interval at a look: a model's score in one group. */
export interface LookRow {
  model: string;
  /** the group in words (e.g. "subjective · baseline · race"), or "B − A …" for a comparison */
  group: string;
  metric: BootstrapMetric;
  estimate: number;
  lo: number;
  hi: number;
  /** the target half-width (halfwidth targets) */
  target?: number;
  /** comparisons: separated (excludes 0), equivalent (inside ±margin) or open */
  decision?: "separated" | "equivalent" | "open";
}

export interface LookRecord {
  look: number;
  level: number;
  /** items with an outcome when it was taken, and the plan's size (the cap) */
  items: number;
  planned: number;
  spentUsd: number;
  at: string;
  met: boolean;
  /** the widest interval relative to its target (halfwidth), or the first undecided comparison */
  widest: { model: string; group: string; metric: BootstrapMetric; halfwidth: number; target: number } | null;
  undecided?: { model: string; group: string; metric: BootstrapMetric } | null;
  rows: LookRow[];
}

export interface AdaptiveState {
  target: AdaptiveTarget;
  schedule: LookSchedule;
  alpha: number;
  intervalTarget: IntervalTarget;
  looks: LookRecord[];
  /** set when the run stopped: why, at which look, with what it used */
  outcome: null | { kind: "met" | "cap"; look: number; items: number; planned: number; spentUsd: number; budgetUsd: number | null; at: string };
}

export function newAdaptiveState(target: AdaptiveTarget, intervalTarget: IntervalTarget, schedule: LookSchedule = DEFAULT_SCHEDULE): AdaptiveState {
  return { target, schedule, alpha: ADAPTIVE_ALPHA, intervalTarget, looks: [], outcome: null };
}

export function adaptiveStateOf(json: string | null | undefined): AdaptiveState | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as AdaptiveState;
  } catch {
    return null;
  }
}

const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)} %`;
const usd = (x: number) => `$${x.toFixed(2)}`;
const METRIC_TEXT: Record<BootstrapMetric, string> = { sFact: "S_fact", sE: "S_E", sKLD: "S_KLD", sFair: "S_fair", distance: "d" };
export const metricText = (m: BootstrapMetric) => METRIC_TEXT[m];

/**
 * The run's adaptive verdict in one sentence, as the run page, the CLI and webhooks say it: "target met at N of M
 * items ($X of $Y)", "cap reached before the target: widest interval ±w on <metric>", or the live state.
 */
export function adaptiveSummary(s: AdaptiveState, run: { status: string; budgetUsd: number | null }): string {
  const last = s.looks.at(-1) ?? null;
  const cost = (spent: number, budget: number | null) => (budget !== null ? ` (${usd(spent)} of ${usd(budget)})` : spent > 0 ? ` (${usd(spent)})` : "");
  const what =
    s.target.kind === "decided"
      ? `A vs B decided on ${s.target.metrics.map(metricText).join(", ")}${s.target.attribute ? ` (${s.target.attribute})` : ""}, equivalence ±${s.target.margin}`
      : formatUntil(s.target);
  if (s.outcome?.kind === "met")
    return `target met at ${s.outcome.items.toLocaleString("en-US")} of ${s.outcome.planned.toLocaleString("en-US")} items${cost(s.outcome.spentUsd, s.outcome.budgetUsd)}: ${what}`;
  const shortfall = () => {
    if (!last) return "no look was taken";
    if (last.widest)
      return `widest interval ±${last.widest.halfwidth.toFixed(3)} on ${metricText(last.widest.metric)} (${last.widest.model}, ${last.widest.group}; target ±${last.widest.target})`;
    if (last.undecided) return `not decided on ${metricText(last.undecided.metric)} (${last.undecided.model}, ${last.undecided.group})`;
    return "the target was not met";
  };
  if (s.outcome?.kind === "cap") return `cap reached before the target: ${shortfall()}`;
  if (run.status === "budget_exhausted") return `budget reached before the target: ${shortfall()}`;
  const looks = s.schedule.fractions.length;
  if (!last) return `adaptive (${what}): first look after ${pct(s.schedule.fractions[0])} of the plan`;
  return `adaptive (${what}): look ${last.look} of ${looks} at ${last.items.toLocaleString("en-US")} of ${last.planned.toLocaleString("en-US")} items did not meet it — ${shortfall()}; next look after ${pct(s.schedule.fractions[Math.min(last.look, looks - 1)])}`;
}

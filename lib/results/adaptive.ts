// An adaptive run's state as stored in Run.adaptiveJson and shown by the run page, the API, the CLI and webhooks
// (client-safe: no server imports). The design (target, schedule, α, interval target) is fixed at launch; each look
// appends its verdict; `outcome` is set once, when the run stops.
import { z } from "zod";
import { CURRENT_QUANTILE, INTERVAL_FLAG_TEXT, type IntervalFlag, type IntervalQuantile, type IntervalTarget } from "../metrics/design";
import {
  ADAPTIVE_ALPHA,
  DEFAULT_DECIDED_MARGIN,
  DEFAULT_SCHEDULE,
  decision,
  FOF_VOCABULARY,
  formatUntil,
  type AdaptiveTarget,
  type LookSchedule,
  type MetricVocabulary,
} from "../metrics/sequential";

const halfwidth = z.number().gt(0).max(0.5);
const metricId = z.string().regex(/^[A-Za-z_]{1,24}$/, "a score's id: letters and underscores");
/**
 * A target as the API and the launch form send it: the CLI's text (`"halfwidth<=0.05"`, `"decided:sFact,sE"`) or
 * its object form. Its shape is checked here, at every boundary; which scores it may name depends on the suite, so
 * the launch reads it against the suite's vocabulary (resolveUntil, lib/metrics/sequential.ts) before anything is
 * created.
 */
export const adaptiveTargetSchema = z.union([
  z.string().trim().min(1).max(200),
  z.object({ kind: z.literal("halfwidth"), halfwidth: z.record(metricId, halfwidth).refine((r) => Object.keys(r).length <= 12, "at most 12 scores") }).strict(),
  z
    .object({
      kind: z.literal("decided"),
      metrics: z.array(metricId).min(1).max(12),
      margin: z.number().gt(0).max(0.5).default(DEFAULT_DECIDED_MARGIN),
      attribute: z.string().max(24).optional(),
    })
    .strict(),
]);
export type UntilInput = z.output<typeof adaptiveTargetSchema>;

/** The target as written, for audit lines and the CLI (text stays text). */
export const untilText = (u: UntilInput): string => (typeof u === "string" ? u : formatUntil(u as AdaptiveTarget));

/** One targeted interval at a look: a model's score in one group. */
export interface LookRow {
  model: string;
  /** the group in words (e.g. "subjective · baseline · race"), or "B − A …" for a comparison */
  group: string;
  metric: string;
  estimate: number;
  lo: number;
  hi: number;
  /** the target half-width (halfwidth targets) */
  target?: number;
  /** comparisons: separated (excludes 0), equivalent (inside ±margin) or open */
  decision?: "separated" | "equivalent" | "open";
  /** the interval's cautions (lib/metrics/design.ts INTERVAL_FLAG_TEXT): e.g. small cells, coverage not promised */
  flags?: IntervalFlag[];
}

/** The flags a look reports: those that qualify the interval ("collapsed" is only conservative, not a caution). */
export const lookFlags = (flags: readonly IntervalFlag[] | undefined): { flags?: IntervalFlag[] } => {
  const f = (flags ?? []).filter((x) => x !== "collapsed");
  return f.length ? { flags: f } : {};
};

/**
 * A comparison's state at a look: as sequential.ts decision(), except that a difference whose cells are too small
 * for the bias correction decides nothing — neither separated (as the Compare page's isSeparable) nor equivalent:
 * its interval's coverage is not promised either way, so the run goes on (to its cap, at worst) rather than stop on it.
 */
export function lookDecision(lo: number, hi: number, margin: number, flags: readonly IntervalFlag[] | undefined) {
  return flags?.includes("small-cells") || flags?.includes("few-scenarios") || flags?.includes("scenario-bias") ? "open" : decision(lo, hi, margin);
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
  widest: { model: string; group: string; metric: string; halfwidth: number; target: number } | null;
  undecided?: { model: string; group: string; metric: string } | null;
  rows: LookRow[];
}

export interface AdaptiveState {
  target: AdaptiveTarget;
  schedule: LookSchedule;
  alpha: number;
  intervalTarget: IntervalTarget;
  /** the intervals' quantile, fixed at launch (lib/metrics/design.ts IntervalQuantile): absent on runs launched before */
  quantile?: IntervalQuantile;
  /** the suite's scores (ids in order, and how each is shown); absent on FACT-OR-FAIR runs of before this field */
  metrics?: { ids: string[]; names: Record<string, string> };
  looks: LookRecord[];
  /** set when the run stopped: why, at which look, with what it used */
  outcome: null | { kind: "met" | "cap"; look: number; items: number; planned: number; spentUsd: number; budgetUsd: number | null; at: string };
}

export function newAdaptiveState(
  target: AdaptiveTarget,
  intervalTarget: IntervalTarget,
  vocab: MetricVocabulary = FOF_VOCABULARY,
  schedule: LookSchedule = DEFAULT_SCHEDULE,
): AdaptiveState {
  const metrics = { ids: [...vocab.ids], names: { ...vocab.names } };
  return { target, schedule, alpha: ADAPTIVE_ALPHA, intervalTarget, quantile: CURRENT_QUANTILE, metrics, looks: [], outcome: null };
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
/** How a score is shown: by the names the run stored (its suite's), else FACT-OR-FAIR's. */
export const metricText = (m: string, s?: Pick<AdaptiveState, "metrics"> | null) => s?.metrics?.names[m] ?? FOF_VOCABULARY.names[m] ?? m;
/** The run's target as text, in its suite's vocabulary. */
export const targetText = (s: AdaptiveState) => formatUntil(s.target, s.metrics ?? FOF_VOCABULARY);

/** The reported intervals' cautions, counted per kind: "; 3 of 80 intervals: a class … absent …" */
function cautions(look: LookRecord | null): string {
  if (!look) return "";
  const counts = new Map<IntervalFlag, number>();
  for (const r of look.rows) for (const f of r.flags ?? []) counts.set(f, (counts.get(f) ?? 0) + 1);
  return [...counts].map(([f, n]) => `; ${n} of ${look.rows.length} intervals: ${INTERVAL_FLAG_TEXT[f]}`).join("");
}

/**
 * The run's adaptive verdict in one sentence, as the run page, the CLI and webhooks say it: "target met at N of M
 * items ($X of $Y)", "cap reached before the target: widest interval ±w on <metric>", or the live state.
 */
export function adaptiveSummary(s: AdaptiveState, run: { status: string; budgetUsd: number | null }): string {
  const last = s.looks.at(-1) ?? null;
  const cost = (spent: number, budget: number | null) => (budget !== null ? ` (${usd(spent)} of ${usd(budget)})` : spent > 0 ? ` (${usd(spent)})` : "");
  const what =
    s.target.kind === "decided"
      ? `A vs B decided on ${s.target.metrics.map((m) => metricText(m, s)).join(", ")}${s.target.attribute ? ` (${s.target.attribute})` : ""}, equivalence ±${s.target.margin}`
      : targetText(s);
  if (s.outcome?.kind === "met")
    return `target met at ${s.outcome.items.toLocaleString("en-US")} of ${s.outcome.planned.toLocaleString("en-US")} items${cost(s.outcome.spentUsd, s.outcome.budgetUsd)}: ${what}${cautions(last)}`;
  const shortfall = () => {
    if (!last) return "no look was taken";
    if (last.widest)
      return `widest interval ±${last.widest.halfwidth.toFixed(3)} on ${metricText(last.widest.metric, s)} (${last.widest.model}, ${last.widest.group}; target ±${last.widest.target})`;
    if (last.undecided) return `not decided on ${metricText(last.undecided.metric, s)} (${last.undecided.model}, ${last.undecided.group})`;
    return "the target was not met";
  };
  if (s.outcome?.kind === "cap") return `cap reached before the target: ${shortfall()}${cautions(last)}`;
  if (run.status === "budget_exhausted") return `budget reached before the target: ${shortfall()}`;
  const looks = s.schedule.fractions.length;
  if (!last) return `adaptive (${what}): first look after ${pct(s.schedule.fractions[0])} of the plan`;
  return `adaptive (${what}): look ${last.look} of ${looks} at ${last.items.toLocaleString("en-US")} of ${last.planned.toLocaleString("en-US")} items did not meet it — ${shortfall()}; next look after ${pct(s.schedule.fractions[Math.min(last.look, looks - 1)])}`;
}

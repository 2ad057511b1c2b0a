"use client";

// An interval as the tables show it: the bias-corrected estimate and its bounds, its target beside it, and a mark
// where its coverage is not promised (the reason in the tooltip); and the control that picks the target.
import {
  INTERVAL_FLAG_TEXT,
  INTERVAL_METHOD,
  INTERVAL_TARGET_LABELS,
  INTERVAL_TARGET_SHORT,
  INTERVAL_TARGETS,
  type Interval,
  type IntervalTarget,
} from "@/lib/metrics/design";
import { formatScore } from "@/components/ui/score";

/** Flags that withdraw the coverage promise (the others only describe the design). */
const WARNING_FLAGS = new Set(["small-cells", "sparse-classes", "few-scenarios", "scenario-bias"]);

export function IntervalCell({ interval: i, target, testId }: { interval: Interval; target: IntervalTarget; testId?: string }) {
  const warn = i.flags.some((f) => WARNING_FLAGS.has(f));
  const notes = i.flags.map((f) => INTERVAL_FLAG_TEXT[f]);
  const title = [
    `95 % interval, ${INTERVAL_TARGET_LABELS[target]}: ${formatScore(i.lo)}–${formatScore(i.hi)}`,
    `bias-corrected estimate ${formatScore(i.estimate)} (the number above is the plug-in, as the paper computes it)`,
    ...notes,
  ].join("\n");
  return (
    <span data-testid={testId} data-flags={i.flags.join(" ")} className="block text-[10px] tabular-nums text-slate-500" title={title}>
      {formatScore(i.estimate, 1)} [{formatScore(i.lo, 1)}, {formatScore(i.hi, 1)}]
      {warn && (
        <span className="ml-0.5 text-amber-700" aria-label="coverage not promised">
          ⚠
        </span>
      )}
    </span>
  );
}

/** "Intervals about [population | this exact benchmark]": the one control every interval view uses. */
export function IntervalTargetSelect({ target, onChange }: { target: IntervalTarget; onChange: (t: IntervalTarget) => void }) {
  return (
    <label className="flex items-center gap-1">
      Intervals about
      <select
        className="rounded border border-slate-300 bg-white px-1 py-0.5"
        value={target}
        onChange={(e) => onChange(e.target.value as IntervalTarget)}
        aria-label="What the intervals are about"
      >
        {INTERVAL_TARGETS.map((t) => (
          <option key={t} value={t}>
            {INTERVAL_TARGET_LABELS[t]}
          </option>
        ))}
      </select>
    </label>
  );
}

export function IntervalTargetPicker({
  target,
  onChange,
  pending,
  errors,
}: {
  target: IntervalTarget;
  onChange: (t: IntervalTarget) => void;
  pending: number;
  errors: string[];
}) {
  return (
    <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600" data-testid="interval-target">
      <IntervalTargetSelect target={target} onChange={onChange} />
      <span>
        Under each score: estimate [95 % interval] ({INTERVAL_TARGET_SHORT[target]}; {INTERVAL_METHOD}); ⚠ coverage not promised. Intervals are about the
        paper&apos;s definitions, whose coverage is verified; under the release profile the S_KLD and S_fair above them follow the released scripts (exp of the
        mean KL), which no interval covers.
      </span>
      {pending > 0 && <span aria-live="polite">Computing intervals…</span>}
      {errors.length > 0 && <span className="text-red-700">Intervals unavailable: {errors[0]}</span>}
    </div>
  );
}

// The options of a suite's results, as a plain GET form (works without JavaScript, keeps the URL shareable).
import { DEFAULT_INTERVAL_TARGET, INTERVAL_TARGET_LABELS, INTERVAL_TARGETS } from "@/lib/metrics/design";
import { ITEM_SETS } from "@/lib/suites/review-states";
import { PROFILE_LABELS, SCORING_PROFILES } from "@/lib/metrics/profiles";
import { Input, Select } from "@/components/ui/input";

/** `profiles`: whether the suite scores differently under its paper's text and its released code. */
/** `keep`: parameters the form carries over (e.g. the runs picked on the Results page). */
export function ResultsControls({
  action,
  labels,
  items,
  reviewable,
  profile = "release",
  profiles = false,
  target = DEFAULT_INTERVAL_TARGET,
  keep = {},
}: {
  action: string;
  labels: string;
  items: string;
  reviewable: boolean;
  profile?: string;
  profiles?: boolean;
  /** what the intervals are about */
  target?: string;
  keep?: Record<string, string>;
}) {
  return (
    <form method="get" action={action} className="flex flex-wrap items-end gap-3 text-sm" aria-label="Result options">
      {Object.entries(keep).map(([k, v]) => (
        <Input key={k} type="hidden" name={k} value={v} />
      ))}
      <label className="flex flex-col text-xs text-slate-600">
        Face labels
        <Select name="labels" defaultValue={labels} className="rounded-md border border-slate-300 px-2 py-1 text-sm">
          <option value="model">model (FairFace as it ran)</option>
          <option value="reviewed">human-corrected (majority, model otherwise)</option>
        </Select>
      </label>
      {reviewable && (
        <label className="flex flex-col text-xs text-slate-600">
          Entries
          <Select name="items" defaultValue={items} className="rounded-md border border-slate-300 px-2 py-1 text-sm">
            {ITEM_SETS.map((s) => (
              <option key={s} value={s}>
                {s === "all" ? "all entries" : "verified entries only"}
              </option>
            ))}
          </Select>
        </label>
      )}
      {profiles && (
        <label className="flex flex-col text-xs text-slate-600">
          Scoring
          <Select name="profile" defaultValue={profile} className="rounded-md border border-slate-300 px-2 py-1 text-sm" data-testid="scoring-profile">
            {SCORING_PROFILES.map((p) => (
              <option key={p} value={p} title={PROFILE_LABELS[p]}>
                {p === "release" ? "released code (as published)" : "paper's text"}
              </option>
            ))}
          </Select>
        </label>
      )}
      <label className="flex flex-col text-xs text-slate-600">
        Intervals about
        <Select name="target" defaultValue={target} className="rounded-md border border-slate-300 px-2 py-1 text-sm" data-testid="interval-target-select">
          {INTERVAL_TARGETS.map((t) => (
            <option key={t} value={t}>
              {INTERVAL_TARGET_LABELS[t]}
            </option>
          ))}
        </Select>
      </label>
      <button type="submit" className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50 focus-visible:outline focus-visible:outline-2">
        Apply
      </button>
    </form>
  );
}

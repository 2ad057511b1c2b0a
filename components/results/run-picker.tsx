// The run picker of the results pages: the runs shown (with why, when chosen by default) and checkboxes for the
// runs of the page's suite; `keep`: parameters the form carries over (metric, profile, options).
import { MIN_DEFAULT_ITEMS } from "@/lib/features/results/select-runs";
import { Input } from "@/components/ui/input";

interface PickerSelection {
  all: Array<{ id: string; name: string; modality: string; status: string; models: string[] }>;
  selected: Array<{ id: string; name: string }>;
  explicit: boolean;
}

export function RunPicker({ selection, keep = {} }: { selection: PickerSelection; keep?: Record<string, string> }) {
  return (
    <details className="rounded-lg border border-slate-200 bg-white px-4 py-2 text-sm" open={selection.selected.length === 0 && selection.all.length > 0}>
      <summary className="cursor-pointer font-medium">
        Runs shown: {selection.selected.length ? selection.selected.map((r) => r.name).join(", ") : "none"}{" "}
        {selection.explicit ? "" : `(the latest ${selection.selected.length} with at least ${MIN_DEFAULT_ITEMS} items done, not cancelled)`}
      </summary>
      <form method="get" className="mt-2 space-y-2">
        {Object.entries(keep).map(([k, v]) => (
          <Input key={k} type="hidden" name={k} value={v} />
        ))}
        <fieldset className="grid gap-1 sm:grid-cols-2">
          <legend className="sr-only">Runs</legend>
          {selection.all.map((r) => (
            <label key={r.id} className="flex items-center gap-2">
              <Input type="checkbox" name="runs" value={r.id} defaultChecked={selection.selected.some((s) => s.id === r.id)} />
              <span>
                {r.name}{" "}
                <span className="text-xs text-slate-500">
                  ({r.modality}, {r.status}, {r.models.join(", ")})
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className="rounded bg-indigo-600 px-3 py-1 text-sm font-medium text-white hover:bg-indigo-700">
          Show selected runs
        </button>
      </form>
    </details>
  );
}

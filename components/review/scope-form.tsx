import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";

/** The scope of the agreement and detector pages: a plain GET form, so every view has its own address. */
export function ScopeForm({
  options,
  scope,
}: {
  options: { runs: Array<{ id: string; name: string }>; models: Array<{ slug: string; label: string }>; assignments: Array<{ id: string; name: string }> };
  scope: { runId?: string; model?: string; assignmentId?: string };
}) {
  const sel = "mt-0.5 rounded-md border border-slate-300 px-2 py-1 text-sm";
  return (
    <form method="get" className="mb-4 flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor="s-run" className="block text-xs text-slate-500">
          Run
        </label>
        <Select id="s-run" name="runId" defaultValue={scope.runId ?? ""} className={sel}>
          <option value="">All runs</option>
          {options.runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="s-model" className="block text-xs text-slate-500">
          Model
        </label>
        <Select id="s-model" name="model" defaultValue={scope.model ?? ""} className={sel}>
          <option value="">All models</option>
          {options.models.map((m) => (
            <option key={m.slug} value={m.slug}>
              {m.label}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="s-assignment" className="block text-xs text-slate-500">
          Assignment
        </label>
        <Select id="s-assignment" name="assignmentId" defaultValue={scope.assignmentId ?? ""} className={sel}>
          <option value="">All reviewed faces</option>
          {options.assignments.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" variant="secondary">
        Apply
      </Button>
    </form>
  );
}

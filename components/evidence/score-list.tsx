// Every value a bundle states beside what the verifier recomputed, as `fof verify` lists them: the ones that differ
// first and open, the rest behind a disclosure (a paper-size run has thousands), filterable by path.
import { useMemo, useState } from "react";
import type { ScoreCheck } from "@/lib/evidence/compare";

const SHOWN = 500;
const show = (v: unknown) => (typeof v === "number" ? String(v) : JSON.stringify(v));

function Rows({ rows }: { rows: ScoreCheck[] }) {
  return (
    <ul className="max-h-96 overflow-auto font-mono text-xs">
      {rows.slice(0, SHOWN).map((s) => (
        <li key={s.path} data-equal={s.equal}>
          {s.equal ? "=" : "≠"} {s.path}: {show(s.stated)}
          {!s.equal && <> (recomputed: {show(s.recomputed)})</>}
        </li>
      ))}
      {rows.length > SHOWN && <li className="text-slate-500">… and {rows.length - SHOWN} more (narrow the filter)</li>}
    </ul>
  );
}

export function ScoreList({ scores }: { scores: ScoreCheck[] }) {
  const [filter, setFilter] = useState("");
  const wrong = useMemo(() => scores.filter((s) => !s.equal), [scores]);
  const equal = useMemo(() => scores.filter((s) => s.equal && s.path.toLowerCase().includes(filter.toLowerCase())), [scores, filter]);
  return (
    <div className="space-y-2" data-testid="score-checks">
      {wrong.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-red-700">
            {wrong.length === 1 ? "1 value does not follow" : `${wrong.length} values do not follow`} from the data
          </h3>
          <Rows rows={wrong} />
        </div>
      )}
      <details>
        <summary className="cursor-pointer text-sm">{scores.length - wrong.length} values recomputed equal</summary>
        <label className="mt-2 block text-xs">
          Filter by path{" "}
          <input
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            className="rounded border border-slate-300 px-1 py-0.5"
            placeholder="sFact, subjective …"
          />
        </label>
        <Rows rows={equal} />
      </details>
    </div>
  );
}

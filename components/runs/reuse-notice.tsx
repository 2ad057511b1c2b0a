// A run that may take other runs' answers says so before its scores: what its launch allowed, and how many answers
// came from which run and when (each outcome says it too, in the item list, exports and evidence bundles).
import type { RunSummary } from "@/lib/features/results/summary";

const day = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") + " UTC" : "an unknown time");

export function ReuseNotice({ reuse }: { reuse: NonNullable<RunSummary["answerReuse"]> }) {
  const total = reuse.reused.reduce((a, r) => a + r.answers, 0);
  return (
    <section aria-labelledby="reuse-heading" data-testid="answer-reuse" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
      <h2 id="reuse-heading" className="font-medium">
        {total ? `${total.toLocaleString("en-US")} answers reused from other runs` : "May reuse answers from other runs"}
      </h2>
      <p className="text-slate-700">Its launch allowed {reuse.allowed}. Reused answers are another run&apos;s sample, not obtained for this one.</p>
      {total > 0 && (
        <ul className="mt-1 list-disc pl-5 text-slate-700">
          {reuse.reused.map((r) => (
            <li key={r.fromRunId}>
              {r.answers.toLocaleString("en-US")} from{" "}
              {r.fromRunId ? (
                <a className="underline" href={`/runs/${encodeURIComponent(r.fromRunId)}`}>
                  run {r.fromRunId}
                </a>
              ) : (
                "an earlier run (not recorded)"
              )}
              , obtained {r.obtainedFrom === r.obtainedTo ? day(r.obtainedFrom) : `${day(r.obtainedFrom)} – ${day(r.obtainedTo)}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

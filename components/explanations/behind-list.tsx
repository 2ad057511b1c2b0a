// The explanations behind a number: each quoted with the spans its readers tagged (reviewers by pseudonym within the
// item, the judge named as the judge, never as a person).
import type { explanationsBehind } from "@/lib/features/explanations/behind";
import { TAG_MEANING } from "@/lib/explanations/tags";
import { TAG_CLASS } from "@/lib/explanations/spans";
import { ExplanationText } from "@/components/review/explanation-text";

type Behind = Awaited<ReturnType<typeof explanationsBehind>>;

export function BehindList({ data }: { data: Behind }) {
  if (!data.items.length) return <p className="text-sm text-slate-600">No explanations here.</p>;
  return (
    <ol className="space-y-4" data-testid="behind-list">
      {data.items.map((item) => (
        <li key={item.outcomeId} className="space-y-2 rounded border border-slate-200 p-3">
          <p className="text-xs text-slate-600">
            {item.model} · {item.statisticId} · {item.context ?? "—"} context · chose {item.chosen ?? "—"}
            {item.chosenGroup.race || item.chosenGroup.gender ? ` (${[item.chosenGroup.race, item.chosenGroup.gender].filter(Boolean).join(", ")})` : ""}
          </p>
          {item.readings.map((r, i) => (
            <div key={r.annotator}>
              <p className="text-xs font-medium">
                Reviewer {String.fromCharCode(65 + i)}: {r.tags.length ? [...new Set(r.tags.map((t) => TAG_MEANING[t.tag].label))].join(", ") : "shows none"}
                {r.note ? ` — “${r.note}”` : ""}
              </p>
              <ExplanationText text={item.explanation} spans={r.tags} className="text-xs" />
            </div>
          ))}
          {item.judge && (
            <div>
              <p className="text-xs font-medium">
                Judge (a model, not a person):{" "}
                {item.judge.length
                  ? item.judge.map((t) => (
                      <span key={`${t.tag}${t.start}`} className={`mr-1 rounded px-1 ${TAG_CLASS[t.tag]}`}>
                        {TAG_MEANING[t.tag].label}
                      </span>
                    ))
                  : "shows none"}
              </p>
              {!item.readings.length && <ExplanationText text={item.explanation} spans={item.judge} className="text-xs" />}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

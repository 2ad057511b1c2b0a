import type { ContentDiff } from "@/lib/content/diff";
import { Alert } from "@/components/ui/alert";

export interface PromptPreview {
  seed: number;
  total: number;
  shown: number;
  items: Array<{ key: string; prompt: string }>;
}

/** What a checked content set would change and send: the diff against the set's latest version, then its prompts. */
export function ContentDiffView({
  diff,
  against,
  prompts,
  existing,
}: {
  diff: ContentDiff | null;
  against: string | null;
  prompts: PromptPreview;
  existing: string | null;
}) {
  const list = (xs: string[]) => (xs.length ? xs.join(", ") : "none");
  return (
    <div className="space-y-3 text-sm" data-testid="content-check">
      {existing ? (
        <Alert tone="info">This content is already stored, as {existing}: nothing new to save.</Alert>
      ) : against && diff ? (
        <section data-testid="content-diff" className="rounded-md border border-slate-200 p-3">
          <h2 className="mb-1 font-semibold">Changes against {against}</h2>
          <ul className="list-disc pl-5">
            <li>
              Statistics added: {list(diff.statistics.added)}; removed: {list(diff.statistics.removed)}; changed:{" "}
              {list(diff.statistics.changed.map((c) => `${c.id} (${c.fields.join(", ")})`))}
            </li>
            <li>
              Scenarios:{" "}
              {diff.scenarios.length
                ? diff.scenarios.map((s) => `${s.statisticId} ${s.level}: +${s.added.length} −${s.removed.length}`).join("; ")
                : "unchanged"}
            </li>
            <li>
              Attributes added: {list(diff.attributes.added)}; removed: {list(diff.attributes.removed)}; changed: {list(diff.attributes.changed)}
            </li>
            <li>Templates changed: {list(diff.templates)}</li>
            {diff.language && (
              <li>
                Language: {diff.language.from} → {diff.language.to}
              </li>
            )}
            <li>
              Prompts (seed {diff.prompts.seed}): {diff.prompts.added} added, {diff.prompts.removed} removed, {diff.prompts.changed} changed
            </li>
          </ul>
        </section>
      ) : (
        <Alert tone="success">Valid: a new content set (no earlier version to compare with). Save it as a draft for an admin to approve.</Alert>
      )}
      <section data-testid="content-prompts">
        <h2 className="mb-1 font-semibold">
          The prompts it sends for seed {prompts.seed}: {prompts.total} per repeat ({prompts.shown} shown)
        </h2>
        <ol className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {prompts.items.map((p) => (
            <li key={p.key} className="px-3 py-2">
              <div className="text-xs text-slate-500">{p.key}</div>
              <pre className="whitespace-pre-wrap font-sans">{p.prompt}</pre>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

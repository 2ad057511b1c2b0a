// A suite run's downloads under the result options chosen: its scores (every table row × metric as CSV, the views as
// JSON) for anyone who may read results, its raw lines (JSONL) and its signed evidence bundle for roles that may
// export data.
export function SuiteExports({
  runId,
  labels,
  items,
  profile,
  canExport,
  chat,
}: {
  runId: string;
  labels: string;
  items: string;
  profile: string;
  canExport: boolean;
  /** a chat suite's run: one line per answer (an image suite's: one per face) */
  chat: boolean;
}) {
  const q = (format: string) => `/api/runs/${runId}/export?${new URLSearchParams({ format, labels, profile })}`;
  const link = "text-xs text-indigo-700 underline";
  return (
    <p className="flex flex-wrap items-center gap-3" aria-label="Downloads">
      <a className={link} href={q("csv")} download>
        Scores CSV (with 95 % intervals)
      </a>
      <a className={link} href={q("json")} download>
        Scores JSON
      </a>
      {canExport && (
        <a className={link} href={q("jsonl")} download>
          Download JSONL (one line per {chat ? "answer" : "face"})
        </a>
      )}
      {canExport && (
        <a className={link} href={`/api/runs/${runId}/bundle`} download title="A signed zip an outsider checks offline with `fof verify` (docs/evidence.md)">
          Evidence bundle (signed)
        </a>
      )}
      <a className={link} href={`/runs/${runId}/report?${new URLSearchParams({ labels, items, profile })}`}>
        Printable report
      </a>
    </p>
  );
}

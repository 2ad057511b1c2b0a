// A suite run's downloads under the result options chosen: its scores (every table row × metric as CSV, the views as
// JSON) for anyone who may read results, its raw lines (JSONL, one per face) for roles that may export data.
export function SuiteExports({
  runId,
  labels,
  items,
  profile,
  canExport,
}: {
  runId: string;
  labels: string;
  items: string;
  profile: string;
  canExport: boolean;
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
          Download JSONL (one line per face)
        </a>
      )}
      <a className={link} href={`/runs/${runId}/report?${new URLSearchParams({ labels, items, profile })}`}>
        Printable report
      </a>
    </p>
  );
}

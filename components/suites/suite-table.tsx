// A suite's table view: label columns, metric columns with intervals and n, published rows beside ours (flagged
// where the source is suspect), each run cell a link to what is behind it.
import Link from "next/link";
import type { TableView, ViewCell, ViewColumn } from "@/lib/suites/views";
import { cn } from "@/components/ui/cn";

function fmt(v: number | null | undefined, c: ViewColumn): string {
  return v === null || v === undefined ? "—" : v.toFixed(c.digits);
}

function CellView({ cell, column, drillHref }: { cell: ViewCell | undefined; column: ViewColumn; drillHref: string | null }) {
  if (!cell || cell.value === null) return <span className="text-slate-400">—</span>;
  const body = (
    <>
      <span className="font-medium">{fmt(cell.value, column)}</span>
      {cell.lo !== undefined && cell.hi !== undefined && (
        <span
          className="block whitespace-nowrap text-[11px] text-slate-500"
          title={cell.estimate !== undefined ? "bias-corrected estimate and its 95 % interval (the value above is the paper's computation)" : undefined}
        >
          {cell.estimate !== undefined && <>est. {fmt(cell.estimate, column)} </>}[{fmt(cell.lo, column)}, {fmt(cell.hi, column)}]
        </span>
      )}
      {cell.n !== undefined && <span className="block text-[11px] text-slate-500">n = {cell.n.toLocaleString("en-US")}</span>}
    </>
  );
  return drillHref ? (
    <Link
      href={drillHref}
      className="block rounded px-1 hover:bg-indigo-50 focus-visible:outline focus-visible:outline-2"
      title={cell.note ?? "open the images behind this value"}
    >
      {body}
    </Link>
  ) : (
    <span title={cell.note}>{body}</span>
  );
}

export function SuiteTable({ view, drillBase }: { view: TableView; drillBase: string }) {
  return (
    <section aria-labelledby={`${view.id}-title`} className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`suite-table-${view.id}`}>
      <h2 id={`${view.id}-title`} className="text-base font-semibold">
        {view.title}
      </h2>
      <p className="mb-3 text-xs text-slate-600">{view.caption}</p>
      <div className="overflow-x-auto">
        <table className="w-full text-sm tabular-nums">
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
              {view.labelHeaders.map((h) => (
                <th key={h} scope="col" className="px-2 py-1">
                  {h}
                </th>
              ))}
              {view.columns.map((c) => (
                <th key={c.id} scope="col" className="px-2 py-1 text-right">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          {view.groups.map((g) => (
            <tbody key={g.title}>
              <tr>
                <th
                  colSpan={view.labelHeaders.length + view.columns.length}
                  scope="colgroup"
                  className="bg-slate-50 px-2 py-1 text-left text-xs font-semibold uppercase tracking-wide text-slate-600"
                >
                  {g.title}
                </th>
              </tr>
              {g.rows.length === 0 && (
                <tr>
                  <td colSpan={view.labelHeaders.length + view.columns.length} className="px-2 py-2 text-xs text-slate-500">
                    Nothing scored yet.
                  </td>
                </tr>
              )}
              {g.rows.map((r, i) => (
                <tr key={i} data-source={r.source} className={cn("border-b border-slate-100", r.source === "published" && "bg-slate-50/60 text-slate-600")}>
                  {r.labels.map((l, j) => (
                    <td key={j} className="px-2 py-1">
                      {l}
                      {j === r.labels.length - 1 && r.flag && (
                        <span
                          className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-[11px] text-amber-900"
                          title={r.flag}
                          data-testid={r.source === "published" ? "published-flag" : "row-flag"}
                        >
                          ⚠ {r.flag}
                        </span>
                      )}
                    </td>
                  ))}
                  {view.columns.map((c) => {
                    const cell = r.cells[c.id];
                    const drill = r.source === "run" && cell?.drill ? `${r.drillBase ?? drillBase}?${new URLSearchParams(cell.drill).toString()}` : null;
                    return (
                      <td key={c.id} className="px-2 py-1 text-right align-top">
                        <CellView cell={cell} column={c} drillHref={drill} />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      </div>
    </section>
  );
}

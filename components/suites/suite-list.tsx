// A suite's drill-down list: rows of text with the images behind them, face boxes drawn over each image with the
// label each face carries.
import Link from "next/link";
import type { ListView } from "@/lib/suites/views";

export function SuiteList({ view, pageHref }: { view: ListView; pageHref: (page: number) => string }) {
  const pages = Math.max(1, Math.ceil(view.total / view.pageSize));
  return (
    <section aria-labelledby={`${view.id}-title`} className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`suite-list-${view.id}`}>
      <h2 id={`${view.id}-title`} className="text-base font-semibold">
        {view.title}
      </h2>
      <p className="mb-3 text-xs text-slate-600">
        {view.caption} {view.total} in all.
      </p>
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
            <th scope="col" className="px-2 py-1">
              Image
            </th>
            {view.columns.map((c) => (
              <th key={c} scope="col" className="px-2 py-1">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {view.rows.map((r, i) => (
            <tr key={i} className="border-b border-slate-100 align-top" data-testid="drill-row">
              <td className="px-2 py-1">
                {r.imageIds?.map((id) => (
                  <a key={id} href={`/api/images/${id}`} target="_blank" rel="noopener" className="relative block w-40" aria-label="open the whole image">
                    {/* eslint-disable-next-line @next/next/no-img-element */}
                    <img src={`/api/images/${id}`} alt="" loading="lazy" className="block w-40 rounded" />
                  </a>
                ))}
                <ul className="mt-1 text-[11px] text-slate-600">
                  {r.faces?.map((f, j) => (
                    <li key={j}>
                      face {j + 1}: {f.label}
                    </li>
                  ))}
                </ul>
              </td>
              {r.cells.map((c, j) => (
                <td key={j} className="px-2 py-1">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <nav aria-label="Pages" className="mt-3 flex items-center gap-3 text-sm">
        {view.page > 0 && <Link href={pageHref(view.page - 1)} className="text-indigo-700 underline">← previous</Link>}
        <span className="text-slate-500">
          page {view.page + 1} of {pages}
        </span>
        {view.page + 1 < pages && <Link href={pageHref(view.page + 1)} className="text-indigo-700 underline">next →</Link>}
      </nav>
    </section>
  );
}

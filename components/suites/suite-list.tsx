// A suite's drill-down list: rows of text with the images behind them, each face's box drawn over its image with the
// number it has in the list of labels under it.
import Link from "next/link";
import type { ListView } from "@/lib/suites/views";
import { BoxedImage } from "@/components/images/boxed-image";

export function SuiteList({ view, pageHref }: { view: ListView; pageHref: (page: number) => string }) {
  const pages = Math.max(1, Math.ceil(view.total / view.pageSize));
  // a chat run's rows have no image: no Image column; a page past the end (an old link) reads as the last
  const images = view.rows.some((r) => (r.imageIds?.length ?? 0) > 0);
  const page = Math.min(view.page, pages - 1);
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
            {images && (
              <th scope="col" className="px-2 py-1">
                Image
              </th>
            )}
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
              {images && (
                <td className="px-2 py-1">
                  {r.imageIds?.map((id) => {
                    const size = r.images?.find((x) => x.id === id);
                    // Faces of this image, numbered in the order they are listed below (and in the row's cells).
                    const numbered = (r.faces ?? []).map((f, j) => ({ f, n: j + 1 })).filter(({ f }) => f.imageId === id);
                    return <BoxedImage key={id} id={id} width={size?.width} height={size?.height} faces={numbered.map(({ f, n }) => ({ box: f.box, n }))} />;
                  })}
                  <ul className="mt-1 text-[11px] text-slate-600">
                    {r.faces?.map((f, j) => (
                      <li key={j}>
                        face {j + 1}: {f.label}
                      </li>
                    ))}
                  </ul>
                </td>
              )}
              {r.cells.map((c, j) => (
                <td key={j} className="px-2 py-1">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {view.total === 0 && <p className="mt-2 text-sm text-slate-500">None.</p>}
      {view.total > view.pageSize && (
        <nav aria-label="Pages" className="mt-3 flex items-center gap-3 text-sm">
          {page > 0 && (
            <Link href={pageHref(page - 1)} className="text-indigo-700 underline">
              ← previous
            </Link>
          )}
          <span className="text-slate-500">
            page {page + 1} of {pages}
          </span>
          {page + 1 < pages && (
            <Link href={pageHref(page + 1)} className="text-indigo-700 underline">
              next →
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

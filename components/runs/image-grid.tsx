"use client";
// A text-to-image run's images, a page at a time: each whole image with its face boxes and labels, filtered by label
// status; refreshed while the run is live or still being labelled.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { runImages } from "@/lib/features/results/run-images";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import { getJson } from "@/lib/client/fetch";

type ImagePage = Awaited<ReturnType<typeof runImages>>;

export function ImageGrid({ runId, raceMapping, live }: { runId: string; raceMapping: string; live: boolean }) {
  // Pages by cursor (the API never pages by offset); the page number is only counted here, for the reader.
  const [filter, setFilter] = useState<{ labelStatus: string; page: number; after?: string; before?: string }>({ labelStatus: "", page: 1 });
  const params = new URLSearchParams({
    pageSize: "24",
    raceMapping,
    ...(filter.labelStatus ? { labelStatus: filter.labelStatus } : {}),
    ...(filter.after ? { after: filter.after } : {}),
    ...(filter.before ? { before: filter.before } : {}),
  });
  const { data, error } = useQuery({
    queryKey: ["run-images", runId, filter, raceMapping],
    queryFn: () => getJson<ImagePage>(`/api/runs/${runId}/images?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 5000 : false,
  });
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <Card title="Images" description="Every image with its statistic, level, prompt kind and the faces found in it.">
      <div className="mb-3 flex flex-wrap items-end gap-3 text-sm">
        <div>
          <label htmlFor="image-status" className="block text-xs font-medium text-slate-600">
            Label status
          </label>
          <Select
            id="image-status"
            value={filter.labelStatus}
            onChange={(e) => setFilter({ labelStatus: e.target.value, page: 1 })}
            className="rounded-md border border-slate-300 px-2 py-1"
          >
            <option value="">all</option>
            <option value="unlabelled">unlabelled</option>
            <option value="labelled">labelled</option>
            <option value="no_face">no face</option>
          </Select>
        </div>
        <span className="text-xs text-slate-500">{data ? `${data.total.toLocaleString("en-US")} images` : "loading…"}</span>
      </div>
      {error && <Alert compact>{(error as Error).message}</Alert>}
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
        {data?.rows.map((img) => (
          <li key={img.id} className="rounded border border-slate-200 p-1 text-xs" data-testid="run-image">
            {/* The whole image (never cropped) with its face boxes on top; a click opens it at full size. */}
            <a
              href={`/api/images/${img.id}`}
              target="_blank"
              rel="noopener"
              className="flex aspect-square items-center justify-center rounded bg-slate-50 focus-visible:outline focus-visible:outline-2"
              aria-label={`Open the whole image (${img.width} × ${img.height}) with its ${img.faces.length} face box${img.faces.length === 1 ? "" : "es"}`}
            >
              <span
                className="relative block max-h-full max-w-full"
                style={{
                  aspectRatio: `${img.width} / ${img.height}`,
                  width: img.width >= img.height ? "100%" : "auto",
                  height: img.height > img.width ? "100%" : "auto",
                }}
              >
                {/* eslint-disable-next-line @next/next/no-img-element */}
                <img src={`/api/images/${img.id}`} alt={`${img.statisticId} ${img.level} ${img.test}`} loading="lazy" className="block h-full w-full rounded" />
                {img.faces.map((f) => (
                  <span
                    key={f.id}
                    data-testid="face-box"
                    title={`${f.gender ?? "?"} / ${f.race ?? "?"}`}
                    className="pointer-events-none absolute border-2 border-amber-400"
                    style={{
                      left: `${(f.x1 / img.width) * 100}%`,
                      top: `${(f.y1 / img.height) * 100}%`,
                      width: `${((f.x2 - f.x1) / img.width) * 100}%`,
                      height: `${((f.y2 - f.y1) / img.height) * 100}%`,
                    }}
                  />
                ))}
              </span>
            </a>
            <p className="mt-1 truncate" title={img.originalName ?? undefined}>
              {img.statisticId} · {img.level} · {img.test}
            </p>
            <p className="text-slate-600">
              {img.labelStatus === "labelled"
                ? img.faces.map((f) => `${f.gender ?? "?"}/${f.race ?? "?"}`).join(", ")
                : img.labelStatus === "no_face"
                  ? "no face"
                  : "not labelled"}
            </p>
          </li>
        ))}
      </ul>
      <nav aria-label="Image pages" className="mt-3 flex items-center gap-2 text-sm">
        <Button
          variant="secondary"
          disabled={!data?.prev || filter.page <= 1}
          onClick={() => data?.prev && setFilter({ labelStatus: filter.labelStatus, page: filter.page - 1, before: data.prev })}
        >
          Previous
        </Button>
        <span className="tabular-nums">
          Page {filter.page} of {pages}
        </span>
        <Button
          variant="secondary"
          disabled={!data?.next}
          onClick={() => data?.next && setFilter({ labelStatus: filter.labelStatus, page: filter.page + 1, after: data.next })}
        >
          Next
        </Button>
      </nav>
    </Card>
  );
}

/** Who is working on this run, and whether they are well: no worker, a stalled one, or database errors show here. */

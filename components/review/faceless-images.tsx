"use client";
import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { fetchFaceless } from "./api";

/** Images with no face in the current scope: open one to draw the faces the detector missed. */
export function FacelessImages({ params, onOpen }: { params: URLSearchParams; onOpen: (imageId: string) => void }) {
  const scope = new URLSearchParams(
    [...params].filter(([k]) =>
      ["runId", "suite", "model", "statisticId", "level", "test", "context", "attribute", "group", "assignmentId", "annotator"].includes(k),
    ),
  );
  const q = useQuery({ queryKey: ["review-faceless", scope.toString()], queryFn: () => fetchFaceless(scope) });
  if (!q.data?.total) return null;
  return (
    <Card
      title={`${q.data.total} image${q.data.total > 1 ? "s" : ""} without a face`}
      description="The detector found none (or every box was deleted), or no classifier has run yet. Open one and drag to add a face."
    >
      <ul className="flex flex-wrap gap-2">
        {q.data.images.map((im) => (
          <li key={im.id}>
            <button
              type="button"
              data-testid="faceless-image"
              onClick={() => onOpen(im.id)}
              className="block rounded border border-slate-200 p-1 text-left text-[10px] hover:border-indigo-400"
              title={`${im.model} · ${im.item} · ${im.level} · ${im.test} · ${im.labelStatus}`}
            >
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src={im.url} alt={`${im.item}, ${im.level}`} className="h-20 w-20 object-cover" loading="lazy" />
              <span className="block w-20 truncate">{im.labelStatus === "unlabelled" ? "not labelled yet" : "no face found"}</span>
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}

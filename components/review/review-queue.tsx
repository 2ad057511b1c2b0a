"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { type LabelSets } from "@/lib/review/label-set";
import { fetchQueue, type ReviewFace } from "./api";
import { FILTER_KEYS, type Filters } from "./filters";
import { ImageView } from "./image-view";
import { useReviewActions } from "./use-review-actions";
import { KeysCard } from "./keys-card";
import { Alert } from "@/components/ui/alert";
import { useQueueKeys } from "./use-queue-keys";
import { QueueFilters, type ReviewOptions } from "./queue-filters";
import { FaceCell, FocusedFace } from "./face-card";
import { FacelessImages } from "./faceless-images";

/** `me`: the signed-in account — every label, drawn box and deletion is stored as theirs, never as a typed name. */
export function ReviewQueue({
  options,
  labelSets,
  initial,
  me,
}: {
  options: ReviewOptions;
  labelSets: LabelSets;
  initial: Partial<Filters>;
  me: { id: string; name: string; canManageGold?: boolean };
}) {
  const annotator = me.id;
  const [filters, setFilters] = useState<Filters>(() => Object.fromEntries(FILTER_KEYS.map((k) => [k, initial[k] ?? (k === "state" ? "all" : "")])) as Filters);
  const [cursor, setCursor] = useState<{ after?: number; before?: number }>({});
  const [focus, setFocus] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [openImage, setOpenImage] = useState<{ imageId: string; faceId: number | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [showHelp, setShowHelp] = useState(true);
  const gridRef = useRef<HTMLDivElement>(null);

  // Filters live in the address, so a view can be bookmarked or shared.
  useEffect(() => {
    const q = new URLSearchParams(Object.entries(filters).filter(([k, v]) => v && !(k === "state" && v === "all")));
    history.replaceState(null, "", `${location.pathname}${q.size ? `?${q}` : ""}`);
  }, [filters]);

  const params = useMemo(() => {
    const q = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
    // A group choice (a set of items) is resolved against its suite: name it when only the run implies it.
    if (filters.group && !filters.suite)
      q.set("suite", options.runs.find((r) => r.id === filters.runId)?.suiteId || (options.suites.length === 1 ? options.suites[0].id : ""));
    if (cursor.after !== undefined) q.set("after", String(cursor.after));
    if (cursor.before !== undefined) q.set("before", String(cursor.before));
    q.set("pageSize", "48");
    return q;
  }, [filters, cursor, options]);
  const query = useQuery({
    queryKey: ["review-queue", params.toString()],
    queryFn: () => fetchQueue(params),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  const faces = useMemo(() => query.data?.faces ?? [], [query.data]);
  const current = faces[Math.min(focus, faces.length - 1)] as ReviewFace | undefined;
  const actions = useReviewActions(annotator, labelSets, setError);

  const setFilter = (k: keyof Filters, v: string) => {
    setFilters((f) => ({ ...f, [k]: v }));
    setCursor({});
    setFocus(0);
    setSelected(new Set());
  };
  const page = (dir: "next" | "prev") => {
    const d = query.data;
    if (!d) return;
    if (dir === "next" && d.next !== null) setCursor({ after: d.next });
    else if (dir === "prev" && d.prev !== null) setCursor({ before: d.prev });
    else return;
    setFocus(0);
    setSelected(new Set());
  };

  const columns = useCallback(() => {
    const g = gridRef.current;
    if (!g) return 1;
    return Math.max(1, getComputedStyle(g).gridTemplateColumns.split(" ").filter(Boolean).length);
  }, []);
  const move = useCallback(
    (delta: number) => {
      setFocus((i) => Math.max(0, Math.min(faces.length - 1, i + delta)));
    },
    [faces.length],
  );
  const advance = useCallback(() => move(1), [move]);

  // Keep the focused card in view.
  useEffect(() => {
    gridRef.current?.querySelector<HTMLElement>(`[data-index="${focus}"]`)?.scrollIntoView({ block: "nearest" });
  }, [focus]);

  useQueueKeys({
    disabled: !!openImage,
    faces,
    current,
    stale: query.isPlaceholderData,
    annotator,
    labelSets,
    actions,
    move,
    columns,
    page,
    advance,
    selected,
    setSelected,
    toggleHelp: () => setShowHelp((x) => !x),
    setError,
    openImage: (f) => setOpenImage({ imageId: f.imageId, faceId: f.id }),
  });

  return (
    <div className="space-y-4">
      <QueueFilters options={options} filters={filters} setFilter={setFilter} me={me} />

      {error && <Alert>{error}</Alert>}

      <div className="grid gap-4 lg:grid-cols-[1fr_16rem]">
        <Card
          title={query.data ? `${faces.length} faces on this page · ${query.data.total} in scope` : "Faces"}
          actions={
            <div className="flex items-center gap-2">
              {selected.size > 0 && (
                <Button
                  variant="secondary"
                  onClick={() => {
                    actions.accept(faces.filter((f) => selected.has(f.id)));
                    setSelected(new Set());
                  }}
                >
                  Accept {selected.size} selected
                </Button>
              )}
              <Button variant="secondary" onClick={() => page("prev")} disabled={query.data?.prev == null}>
                ← Previous
              </Button>
              <Button variant="secondary" onClick={() => page("next")} disabled={query.data?.next == null}>
                Next →
              </Button>
            </div>
          }
        >
          {query.isError && <Alert compact>Could not load faces: {(query.error as Error).message}</Alert>}
          {query.data && !faces.length && <p className="text-sm text-slate-600">No faces match these filters.</p>}
          <div
            ref={gridRef}
            tabIndex={0}
            role="grid"
            aria-label="Faces to review"
            aria-busy={query.isPlaceholderData || query.isLoading}
            aria-activedescendant={current ? `face-${current.id}` : undefined}
            className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3 outline-none"
          >
            {faces.map((f, i) => (
              <FaceCell
                key={f.id}
                f={f}
                i={i}
                focused={i === focus}
                selected={selected.has(f.id)}
                labelSets={labelSets}
                onFocus={() => setFocus(i)}
                onOpen={() => setOpenImage({ imageId: f.imageId, faceId: f.id })}
              />
            ))}
          </div>
        </Card>

        <aside className="space-y-4">
          <KeysCard
            attributes={labelSets[current?.suite ?? ""] ?? Object.values(labelSets)[0] ?? []}
            show={showHelp}
            onToggle={() => setShowHelp((x) => !x)}
            saving={actions.saving}
            undoDepth={actions.undoDepth}
          />
          {current && <FocusedFace current={current} labelSets={labelSets} canManageGold={me.canManageGold} />}
        </aside>
      </div>
      <FacelessImages params={params} onOpen={(imageId) => setOpenImage({ imageId, faceId: null })} />
      {openImage && (
        <ImageView
          imageId={openImage.imageId}
          focusFaceId={openImage.faceId}
          annotator={annotator}
          labelSets={labelSets}
          actions={actions}
          onClose={() => {
            setOpenImage(null);
            gridRef.current?.focus();
          }}
        />
      )}
    </div>
  );
}

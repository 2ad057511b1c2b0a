"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { allLabelKeys, keyAction, type LabelSets } from "@/lib/review/label-set";
import { fetchFaceless, fetchQueue, type ReviewFace } from "./api";
import { FaceCrop } from "./face-crop";
import { FILTER_KEYS, type Filters } from "./filters";
import { ImageView } from "./image-view";
import { useReviewActions } from "./use-review-actions";
import { attributesOf, labelText } from "./label-text";
import { KeysCard } from "./keys-card";
import type { ReviewFilter } from "@/lib/suites/types";
import { Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

/** Keys that accept or mark a face (the label sets add theirs): without an annotator they do nothing but say why. */
const MARK_KEYS = ["a", "A", "Enter", "x", "Delete"];

export interface ReviewOptions {
  runs: Array<{ id: string; name: string; suiteId: string }>;
  models: Array<{ slug: string; label: string }>;
  /** suites with images, each with its own filters (Suite.reviewFilters) */
  suites: Array<{ id: string; name: string; filters: ReviewFilter[] }>;
  assignments: Array<{ id: string; name: string }>;
}

const pct = (p: number) => `${Math.round(p * 100)} %`;

/** Images with no face in the current scope: open one to draw the faces the detector missed. */
function FacelessImages({ params, onOpen }: { params: URLSearchParams; onOpen: (imageId: string) => void }) {
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
  me: { id: string; name: string };
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
  const labelKeys = useMemo(() => new Set([...MARK_KEYS, ...allLabelKeys(labelSets)]), [labelSets]);

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

  useEffect(() => {
    if (openImage) return; // the image view has its own keys
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
      if (e.altKey) return;
      const mod = e.ctrlKey || e.metaKey;
      const k = e.key;
      let handled = true;
      if (mod && (k === "z" || k === "Z")) actions.undo();
      else if (mod && (k === "a" || k === "A")) setSelected(new Set(faces.map((f) => f.id)));
      else if (mod) handled = false;
      else if (k === "ArrowRight") move(1);
      else if (k === "ArrowLeft") move(-1);
      else if (k === "ArrowDown") move(columns());
      else if (k === "ArrowUp") move(-columns());
      else if (k === "Home") setFocus(0);
      else if (k === "End") setFocus(Math.max(0, faces.length - 1));
      else if (k === "PageDown" || k === "n") page("next");
      else if (k === "PageUp" || k === "p") page("prev");
      else if (k === "?") setShowHelp((s) => !s);
      else if (k === "u" || k === "Backspace") actions.undo();
      else if (k === "Escape") setSelected(new Set());
      else if (!current || query.isPlaceholderData)
        handled = false; // labels wait for this annotator's page
      else if (!annotator && labelKeys.has(k)) {
        // Nothing is labelled, skipped or moved without an account: the key only says why.
        setError("Sign in first: every label is stored under your account.");
      } else if (k === "A" && e.shiftKey) {
        const list = faces.filter((f) => selected.has(f.id));
        actions.accept(list.length ? list : []);
        setSelected(new Set());
      } else if (k === "a" || k === "Enter") {
        actions.accept([current]);
        advance();
      } else if (keyAction(labelSets[current.suite] ?? [], k)) {
        const act = keyAction(labelSets[current.suite] ?? [], k)!;
        actions.setLabel(current, act.attribute, act.value);
      } else if (k === "x") {
        actions.toggleNotAFace(current);
        advance();
      } else if (k === " ") {
        setSelected((s) => {
          const n = new Set(s);
          if (n.has(current.id)) n.delete(current.id);
          else n.add(current.id);
          return n;
        });
      } else if (k === "o" || k === "i") setOpenImage({ imageId: current.imageId, faceId: current.id });
      else if (k === "Delete") actions.setDeleted(current, !current.deleted);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  // Whose coordinates to filter by: the chosen suite, else the chosen run's, else the only suite with images.
  const suiteId = filters.suite || options.runs.find((r) => r.id === filters.runId)?.suiteId || (options.suites.length === 1 ? options.suites[0].id : "");
  const suiteFilters = options.suites.find((s) => s.id === suiteId)?.filters ?? [];
  const select = (k: keyof Filters, label: string, choices: Array<[string, string]>) => (
    <div>
      <label htmlFor={`f-${k}`} className="block text-xs text-slate-500">
        {label}
      </label>
      <Select
        id={`f-${k}`}
        value={filters[k]}
        onChange={(e) => setFilter(k, e.target.value)}
        className="mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
      >
        {choices.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </Select>
    </div>
  );

  return (
    <div className="space-y-4">
      <Card>
        <p className="text-xs text-slate-500" data-testid="annotator">
          Reviewing as <strong>{me.name}</strong>: your labels are kept apart from every other annotator’s and combined by majority vote.
        </p>
        <div className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-8">
          {select("runId", "Run", [["", "All runs"], ...options.runs.map((r): [string, string] => [r.id, r.name])])}
          {select("model", "Model", [["", "All models"], ...options.models.map((m): [string, string] => [m.slug, m.label])])}
          {options.suites.length > 1 && select("suite", "Suite", [["", "All suites"], ...options.suites.map((s): [string, string] => [s.id, s.name])])}
          {/* The item, level and test filters are the suite's own (its coordinates): those of the chosen suite or run. */}
          {suiteFilters.map((f) => (
            <Fragment key={f.key}>{select(f.key, f.label, [["", "All"], ...f.options.map((o): [string, string] => [o.value, o.label])])}</Fragment>
          ))}
          {select("state", "Show", [
            ["all", "All faces"],
            ["unreviewed", "Not reviewed by me"],
            ["unreviewed-any", "Not reviewed by anyone"],
            ["reviewed", "Reviewed by me"],
            ["disagreement", "Annotators disagree"],
          ])}
          {select("confidenceBelow", "Confidence", [
            ["", "Any"],
            ["0.6", "Low (< 60 %)"],
            ["0.8", "Below 80 %"],
            ["0.95", "Below 95 %"],
          ])}
          {select("assignmentId", "Assignment", [["", "None"], ...options.assignments.map((a): [string, string] => [a.id, a.name])])}
        </div>
      </Card>

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
              // The grid takes the keyboard (arrows, keys per class) and points at a cell with aria-activedescendant;
              // a click on a cell is the mouse's way to the same place.
              // eslint-disable-next-line jsx-a11y/click-events-have-key-events
              <div
                key={f.id}
                id={`face-${f.id}`}
                tabIndex={-1}
                role="gridcell"
                aria-selected={selected.has(f.id)}
                data-testid="review-face"
                data-index={i}
                data-face-id={f.id}
                data-focused={i === focus ? "true" : undefined}
                data-mine={labelText(f.mine, attributesOf(labelSets, f.suite))}
                data-deleted={f.deleted ? "true" : undefined}
                onClick={() => setFocus(i)}
                onDoubleClick={() => setOpenImage({ imageId: f.imageId, faceId: f.id })}
                className={cn(
                  "cursor-pointer rounded-lg border bg-white p-1.5 text-xs",
                  i === focus ? "border-indigo-500 ring-2 ring-indigo-400" : "border-slate-200",
                  selected.has(f.id) && "bg-indigo-50",
                  f.deleted && "opacity-40",
                )}
              >
                <div className="relative">
                  <FaceCrop face={f} size={136} />
                  {selected.has(f.id) && <span className="absolute left-1 top-1 rounded bg-indigo-600 px-1 text-[10px] text-white">selected</span>}
                  {f.mine && (
                    <span className={cn("absolute right-1 top-1 rounded px-1 text-[10px] text-white", f.mine.notAFace ? "bg-rose-600" : "bg-emerald-600")}>
                      {f.mine.notAFace ? "not a face" : "reviewed"}
                    </span>
                  )}
                </div>
                <div className="mt-1 space-y-0.5">
                  <div title="the model's prediction in this suite's classes and its confidence">
                    {f.prediction ? (
                      <>
                        {attributesOf(labelSets, f.suite).map((a, j) =>
                          f.prediction!.values[a.id] ? (
                            <Fragment key={a.id}>
                              {j > 0 && " · "}
                              <span className="font-medium">{f.prediction!.values[a.id]}</span> {pct(f.prediction!.confidence[a.id] ?? 0)}
                            </Fragment>
                          ) : null,
                        )}
                      </>
                    ) : (
                      <span className="text-amber-700">no model label{f.source === "manual" ? " (drawn by hand)" : ""}</span>
                    )}
                  </div>
                  <div>
                    me: <span data-testid="mine">{labelText(f.mine, attributesOf(labelSets, f.suite))}</span>
                  </div>
                  <div className="text-slate-500">
                    {f.consensus.annotators ? `${f.consensus.annotators} annotator${f.consensus.annotators > 1 ? "s" : ""}` : "no annotator yet"}
                    {f.consensus.disagreement && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-800">disagree</span>}
                  </div>
                  <div className="truncate text-slate-500" title={`${f.model.label} · ${f.item.name} · ${f.level} · ${f.test}`}>
                    {f.item.name} · {f.level} · {f.test}
                  </div>
                </div>
              </div>
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
          {current && (
            <Card title="Focused face">
              <dl className="space-y-1 text-xs" data-testid="focused-face">
                <div>
                  <dt className="inline text-slate-500">Model: </dt>
                  <dd className="inline">{current.model.label}</dd>
                </div>
                <div>
                  <dt className="inline text-slate-500">Item: </dt>
                  <dd className="inline">
                    {current.item.name} ({current.level}, {current.test})
                  </dd>
                </div>
                {current.prediction && (
                  <div>
                    <dt className="inline text-slate-500">FairFace: </dt>
                    <dd className="inline">
                      {current.prediction.fairface.race} {pct(current.prediction.fairface.p)}
                    </dd>
                  </div>
                )}
                <div>
                  <dt className="inline text-slate-500">Majority: </dt>
                  <dd className="inline">
                    {current.consensus.annotators
                      ? current.consensus.notAFace
                        ? "not a face"
                        : attributesOf(labelSets, current.suite)
                            .map((a) => current.consensus.values[a.id] ?? "–")
                            .join(", ")
                      : "–"}
                  </dd>
                </div>
                {current.labels.map((l) => (
                  <div key={l.annotator}>
                    <dt className="inline text-slate-500">{l.name}: </dt>
                    <dd className="inline">{labelText(l, attributesOf(labelSets, current.suite))}</dd>
                  </div>
                ))}
              </dl>
            </Card>
          )}
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

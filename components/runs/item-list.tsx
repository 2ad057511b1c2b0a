"use client";

// A run's items, whatever its suite: filters (status, model, failure reason and the suite's own coordinates) live in
// the address, so the Failures panel links here and a filtered list can be shared; each item opens to its exact
// prompt, raw output, error, attempt log and (text-to-image) images with numbered face boxes and their labels.
import { Fragment } from "react";
import { useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ItemPage } from "@/lib/features/runs/items";
import { QUERY_STATUSES } from "@/lib/core/run-status";
import type { ReviewFilter } from "@/lib/suites/types";
import { getJson } from "@/lib/client/fetch";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { BoxedImage } from "@/components/images/boxed-image";
import { Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

/** The address parameters the list reads (and writes), besides `item` (the open one). */
const ITEM_PARAMS = ["status", "model", "reason", "test", "context", "statisticId", "level", "attribute", "group", "itemsAfter", "itemsBefore"] as const;
/** The page cursors (ids): which page of the filtered list is shown. */
const CURSORS: readonly Param[] = ["itemsAfter", "itemsBefore"];
type Param = (typeof ITEM_PARAMS)[number];

/** The address of a run's item list with these filters (the Failures panel's links). */
export function itemsHref(runId: string, filters: Partial<Record<Param, string>>) {
  return `/runs/${runId}?${new URLSearchParams(Object.entries(filters).filter(([, v]) => v) as Array<[string, string]>)}#items`;
}

const tone = (s: string) => (s === "answered" ? "success" : s === "failed" ? "danger" : s === "refused" ? "warning" : "neutral");

export function ItemList({
  runId,
  live,
  filters,
  models,
  t2i,
}: {
  runId: string;
  live: boolean;
  filters: readonly ReviewFilter[];
  models: readonly string[];
  t2i: boolean;
}) {
  const sp = useSearchParams();
  const value = (k: Param) => sp.get(k) ?? "";
  const open = Number(sp.get("item")) || null;
  // The address is the state: written with the History API (Next.js keeps useSearchParams in step, no server trip).
  const set = (changes: Partial<Record<Param | "item", string | null>>) => {
    const next = new URLSearchParams(sp);
    for (const [k, v] of Object.entries(changes))
      if (v) next.set(k, v);
      else next.delete(k);
    // A new filter starts from the first page; opening an item keeps the page.
    if (!CURSORS.some((c) => c in changes) && !("item" in changes)) for (const c of CURSORS) next.delete(c);
    window.history.replaceState(null, "", `${window.location.pathname}?${next}#items`);
  };
  const query = new URLSearchParams({ pageSize: "25" });
  for (const k of ITEM_PARAMS) if (value(k)) query.set(k === "itemsAfter" ? "after" : k === "itemsBefore" ? "before" : k, value(k));
  const { data, isFetching, error } = useQuery({
    queryKey: ["run-items", runId, query.toString()],
    queryFn: () => getJson<ItemPage>(`/api/runs/${runId}/queries?${query}`),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 3000 : false,
  });
  const labelOf = (key: ReviewFilter["key"], v: string | null) =>
    v === null ? null : (filters.find((f) => f.key === key)?.options.find((o) => o.value === v)?.label ?? v);
  const coordinates = (q: ItemPage["rows"][number]) =>
    [labelOf("test", q.test), q.context && labelOf("context", q.context), labelOf("level", q.level), q.attribute && labelOf("attribute", q.attribute)]
      .filter(Boolean)
      .join(" · ");
  const select = (key: Param, label: string, choices: ReadonlyArray<{ value: string; label: string }>) => (
    <div key={key}>
      <label htmlFor={`items-${key}`} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      <Select
        id={`items-${key}`}
        value={value(key)}
        onChange={(e) => set({ [key]: e.target.value || null })}
        className="max-w-48 rounded-md border border-slate-300 px-2 py-1"
      >
        <option value="">all</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </Select>
    </div>
  );

  return (
    <Card
      title={t2i ? "Items and images" : "Queries"}
      description={`Every planned item with its exact prompt, raw output, attempts and error${t2i ? ", and its images with numbered face boxes in the suite's classes" : ", parsed answer"}.`}
    >
      <div id="items" className="mb-3 flex scroll-mt-4 flex-wrap items-end gap-3 text-sm">
        {select(
          "status",
          "Status",
          QUERY_STATUSES.map((s) => ({ value: s, label: s })),
        )}
        {models.length > 1 &&
          select(
            "model",
            "Model",
            models.map((m) => ({ value: m, label: m })),
          )}
        {filters.map((f) => select(f.key, f.label, f.options))}
        {value("reason") && (
          <p className="flex items-center gap-2 text-xs">
            <span className="max-w-md truncate rounded bg-rose-50 px-1.5 py-0.5 text-rose-800" title={value("reason")}>
              reason: {value("reason")}
            </span>
            <button type="button" className="text-indigo-700 underline" onClick={() => set({ reason: null })}>
              clear
            </button>
          </p>
        )}
        <span className="text-xs text-slate-500" aria-live="polite">
          {data ? `${data.total.toLocaleString("en-US")} item${data.total === 1 ? "" : "s"}` : "loading…"} {isFetching && "· updating"}
        </span>
      </div>
      {error && <Alert compact>{(error as Error).message}</Alert>}
      <Table>
        <thead>
          <tr>
            <Th>#</Th>
            <Th>Model</Th>
            <Th>Item</Th>
            <Th>Coordinates</Th>
            <Th>Status</Th>
            <Th>{t2i ? "Images" : "Answer"}</Th>
            <Th className="text-right">Attempts</Th>
          </tr>
        </thead>
        <tbody>
          {data?.rows.map((q) => (
            <Fragment key={q.id}>
              <tr className="hover:bg-slate-50" data-testid="item-row">
                <Td>
                  <button
                    type="button"
                    className="text-indigo-700 underline-offset-2 hover:underline"
                    aria-expanded={open === q.id}
                    aria-controls={`item-${q.id}`}
                    onClick={() => set({ item: open === q.id ? null : String(q.id) })}
                  >
                    {q.id}
                  </button>
                </Td>
                <Td>{q.model}</Td>
                <Td className="max-w-56 truncate" title={q.statisticId}>
                  {labelOf("statisticId", q.statisticId)}
                </Td>
                <Td>{coordinates(q)}</Td>
                <Td>
                  <Badge tone={tone(q.status)}>{q.status}</Badge>
                </Td>
                <Td>
                  {t2i
                    ? q.images.length
                      ? `${q.images.length} · ${q.images.reduce((n, im) => n + im.faces.length, 0)} face(s)`
                      : "–"
                    : q.outcome?.parsedLetter
                      ? `${q.outcome.parsedLetter} → ${q.outcome.meaning ?? "–"}`
                      : "–"}
                </Td>
                <Td className="text-right tabular-nums">{(q.outcome?.attempts ?? 0) + q.retries}</Td>
              </tr>
              {open === q.id && (
                <tr id={`item-${q.id}`}>
                  <Td colSpan={7} className="bg-slate-50">
                    <ItemDetail q={q} />
                  </Td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </Table>
      {/* Pages by cursor (the items around an id), so a page deep in a 160,000-item run costs what the first does. */}
      <nav aria-label="Pages" className="mt-3 flex items-center gap-2 text-sm">
        <Button
          variant="secondary"
          disabled={!data?.prev && !value("itemsAfter") && !value("itemsBefore")}
          onClick={() => set({ itemsAfter: null, itemsBefore: null })}
        >
          First
        </Button>
        <Button variant="secondary" disabled={!data?.prev} onClick={() => data?.prev && set({ itemsBefore: String(data.prev), itemsAfter: null })}>
          Previous
        </Button>
        <span className="tabular-nums">
          {data?.rows.length ? `items ${data.rows[0].id.toLocaleString("en-US")}–${data.rows[data.rows.length - 1].id.toLocaleString("en-US")} · ` : ""}
          {(data?.total ?? 0).toLocaleString("en-US")} in all
        </span>
        <Button variant="secondary" disabled={!data?.next} onClick={() => data?.next && set({ itemsAfter: String(data.next), itemsBefore: null })}>
          Next
        </Button>
      </nav>
    </Card>
  );
}

function ItemDetail({ q }: { q: ItemPage["rows"][number] }) {
  return (
    <div className="grid gap-3 md:grid-cols-2">
      <div>
        <h4 className="text-xs font-semibold text-slate-600">Prompt</h4>
        <pre className="mt-1 whitespace-pre-wrap break-words rounded border border-slate-200 bg-white p-2 font-mono text-xs">{q.prompt}</pre>
        {q.helper && (
          <div data-testid="helper-answer">
            <h4 className="mt-2 text-xs font-semibold text-slate-600">
              Helper answer (item {q.helper.queryId}: reasoning or guidance), appended to the prompt
            </h4>
            {/* Model output is text, never HTML. */}
            <pre className="mt-1 whitespace-pre-wrap break-words rounded border border-slate-200 bg-white p-2 font-mono text-xs">
              {q.helper.answer ?? "(not written yet)"}
            </pre>
            {q.helper.answer !== null && (
              <details>
                <summary className="cursor-pointer text-xs text-slate-600">Prompt as sent</summary>
                <pre className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{q.promptSent}</pre>
              </details>
            )}
          </div>
        )}
        {q.images.length > 0 && (
          <div className="mt-2 flex flex-wrap gap-3" data-testid="item-images">
            {q.images.map((im) => (
              <figure key={im.id} className="text-[11px] text-slate-600">
                <BoxedImage id={im.id} width={im.width} height={im.height} faces={im.faces.map((f, j) => ({ box: f.box, n: j + 1 }))} />
                <figcaption className="mt-1">
                  {im.labelStatus === "unlabelled" || im.labelStatus === "leased" ? "not labelled yet" : im.faces.length === 0 ? "no face" : null}
                  <ul>
                    {im.faces.map((f, j) => (
                      <li key={f.id}>
                        face {j + 1}: {f.label}
                      </li>
                    ))}
                  </ul>
                </figcaption>
              </figure>
            ))}
          </div>
        )}
      </div>
      <div className="space-y-2">
        <h4 className="text-xs font-semibold text-slate-600">Raw output</h4>
        {/* Model output is text, never HTML. */}
        <pre data-testid="raw-output" className="whitespace-pre-wrap break-words rounded border border-slate-200 bg-white p-2 font-mono text-xs">
          {q.outcome?.rawText ?? "(none)"}
        </pre>
        {q.outcome?.reason && <p className="text-xs text-rose-700">Reason: {q.outcome.reason}</p>}
        <p className="text-xs text-slate-600">
          {q.outcome
            ? `${q.outcome.status} · ${(q.outcome.latencyMs ?? 0).toLocaleString("en-US")} ms · $${q.outcome.costUsd.toFixed(5)}${q.outcome.reused ? ` · ${q.outcome.reused}` : q.outcome.cached ? " · from this run's cache" : ""}`
            : "not answered yet"}
          {q.identity ? ` · context identity ${JSON.stringify(q.identity)}` : ""}
        </p>
        <details>
          <summary className="cursor-pointer text-xs text-slate-600">Attempt log</summary>
          <pre className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{JSON.stringify(q.outcome?.attemptLog ?? [], null, 2)}</pre>
        </details>
      </div>
    </div>
  );
}

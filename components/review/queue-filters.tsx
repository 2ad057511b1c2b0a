"use client";
// The review queue's filters (run, model, suite, the suite's own coordinates, state, confidence, assignment): each a
// labelled select; the chosen values live in the address (useReviewQueue).
import { Fragment } from "react";
import { Card } from "@/components/ui/card";
import { Select } from "@/components/ui/input";
import type { ReviewFilter } from "@/lib/suites/types";
import type { Filters } from "./filters";

export interface ReviewOptions {
  runs: Array<{ id: string; name: string; suiteId: string }>;
  models: Array<{ slug: string; label: string }>;
  /** suites with images, each with its own filters (Suite.reviewFilters) */
  suites: Array<{ id: string; name: string; filters: ReviewFilter[] }>;
  assignments: Array<{ id: string; name: string }>;
}

export function QueueFilters({
  options,
  filters,
  setFilter,
  me,
}: {
  options: ReviewOptions;
  filters: Filters;
  setFilter: (k: keyof Filters, v: string) => void;
  me: { name: string };
}) {
  // Whose coordinates to filter by: the chosen suite, else the chosen run's, else the only suite with images.
  const runSuite = options.runs.find((r) => r.id === filters.runId)?.suiteId ?? "";
  const suiteId = filters.suite || runSuite || (options.suites.length === 1 ? options.suites[0].id : "");
  const suiteFilters = options.suites.find((s) => s.id === suiteId)?.filters ?? [];
  // The Suite filter follows the chosen run (a run is of one suite); choosing another suite lets go of the run.
  const shown = (k: keyof Filters) => (k === "suite" ? filters.suite || runSuite : filters[k]);
  const change = (k: keyof Filters, v: string) => {
    if (k === "suite" && filters.runId && runSuite && v !== runSuite) setFilter("runId", "");
    setFilter(k, v);
  };
  const select = (k: keyof Filters, label: string, choices: Array<[string, string]>) => (
    <div>
      <label htmlFor={`f-${k}`} className="block text-xs text-slate-500">
        {label}
      </label>
      <Select
        id={`f-${k}`}
        value={shown(k)}
        onChange={(e) => change(k, e.target.value)}
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
  );
}

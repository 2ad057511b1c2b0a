"use client";
// One face in the review grid (its crop, the model's reading with confidences, my label, the annotators' state) and
// the focused face's details beside the grid.
import { Fragment } from "react";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import type { LabelSets } from "@/lib/review/label-set";
import type { ReviewFace } from "./api";
import { FaceCrop } from "./face-crop";
import { GoldControl } from "./gold-control";
import { attributesOf, labelText } from "./label-text";

const pct = (p: number) => `${Math.round(p * 100)} %`;

/** A grid cell: the grid holds the keyboard and points here with aria-activedescendant; a click focuses it. */
export function FaceCell({
  f,
  i,
  focused,
  selected,
  labelSets,
  onFocus,
  onOpen,
}: {
  f: ReviewFace;
  i: number;
  focused: boolean;
  selected: boolean;
  labelSets: LabelSets;
  onFocus: () => void;
  onOpen: () => void;
}) {
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events
    <div
      key={f.id}
      id={`face-${f.id}`}
      tabIndex={-1}
      role="gridcell"
      aria-selected={selected}
      data-testid="review-face"
      data-index={i}
      data-face-id={f.id}
      data-focused={focused ? "true" : undefined}
      data-mine={labelText(f.mine, attributesOf(labelSets, f.suite))}
      data-deleted={f.deleted ? "true" : undefined}
      onClick={onFocus}
      onDoubleClick={onOpen}
      className={cn(
        "cursor-pointer rounded-lg border bg-white p-1.5 text-xs",
        focused ? "border-indigo-500 ring-2 ring-indigo-400" : "border-slate-200",
        selected && "bg-indigo-50",
        f.deleted && "opacity-40",
      )}
    >
      <div className="relative">
        <FaceCrop face={f} size={136} />
        {selected && <span className="absolute left-1 top-1 rounded bg-indigo-600 px-1 text-[10px] text-white">selected</span>}
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
  );
}

export function FocusedFace({ current, labelSets, canManageGold = false }: { current: ReviewFace; labelSets: LabelSets; canManageGold?: boolean }) {
  return (
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
            <dd className="inline">
              {labelText(l, attributesOf(labelSets, current.suite))}
              {l.excluded && (
                <span className="ml-1 rounded bg-rose-100 px-1 text-rose-800" title="an admin left this annotator's votes out of the consensus">
                  not counted
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {canManageGold && <GoldControl face={current} />}
    </Card>
  );
}

"use client";
// One form for dealing review work, whatever the kind of item (lib/review/kinds.ts): a name, the reviewers (accounts
// that may review this kind, never typed names), how many read each item, the share of gold in each queue, and the
// kind's own sampling fields (children). The face assignment and the explanation sample are two uses of it.
import type { ReactNode } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";
import type { ReviewKind } from "@/lib/review/kinds";

export const reviewInput = "mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1 text-sm";

const FORM: Record<
  ReviewKind,
  { name: string; reviewers: string; none: string; overlap: string; overlapHint?: string; goldLabel: string; gold: string; goldDefault: number }
> = {
  faces: {
    name: "Validation sample",
    reviewers: "Annotators",
    none: "No account may review faces yet: invite annotators on the Users page.",
    overlap: "Annotators per image (blank: all)",
    goldLabel: "Gold faces (% of each queue)",
    gold: "Reviewed faces an admin marked gold, served blind to measure accuracy (0: none).",
    goldDefault: 5,
  },
  explanations: {
    name: "Explanation sample",
    reviewers: "Reviewers",
    none: "No account may review explanations yet: invite reviewers or annotators on the Users page.",
    overlap: "Reviewers per explanation",
    overlapHint: "Two by default: agreement (Krippendorff's alpha) and the judge's check need doubly read explanations.",
    goldLabel: "Gold explanations (% of each queue)",
    gold: "This run's explanations an admin marked gold (before drawing), dealt blind among the rest, spread over strata like each reviewer's share, to measure each reviewer (0: none).",
    goldDefault: 0,
  },
};

export function ReviewAssignmentForm({
  kind,
  action,
  pending,
  people,
  overlapDefault,
  fields,
  below,
  submit,
  disabled = false,
  outcome,
}: {
  kind: ReviewKind;
  action: (form: FormData) => void;
  pending: boolean;
  people: Array<{ id: string; name: string }>;
  overlapDefault?: number;
  /** the kind's own fields (how much to sample, from what), in the grid; `below`: full width under it */
  fields: ReactNode;
  below?: ReactNode;
  submit: { label: string; pending: string };
  disabled?: boolean;
  /** what the action answered */
  outcome: { ok?: boolean; message?: string; after?: ReactNode };
}) {
  const f = FORM[kind];
  const id = (x: string) => `${kind}-assign-${x}`;
  return (
    <ActionForm action={action} className="space-y-3 text-sm">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name">
          <Input id={id("name")} name="name" required defaultValue={f.name} className={reviewInput} />
        </Field>
        <fieldset>
          <legend className="text-xs text-slate-500">{f.reviewers}</legend>
          <div className="mt-0.5 max-h-32 overflow-auto rounded-md border border-slate-300 px-2 py-1">
            {people.length === 0 && <span className="text-xs text-slate-500">{f.none}</span>}
            {people.map((p) => (
              <label key={p.id} className="flex items-center gap-2">
                <Input type="checkbox" name="annotators" value={p.id} /> {p.name}
              </label>
            ))}
          </div>
        </fieldset>
        <Field label={f.overlap} hint={f.overlapHint}>
          <Input id={id("overlap")} name="overlap" type="number" min={1} max={10} defaultValue={overlapDefault} className={reviewInput} />
        </Field>
        <Field label={f.goldLabel} hint={f.gold}>
          <Input id={id("gold")} name="goldPercent" type="number" min={0} max={50} step={1} defaultValue={f.goldDefault} className={reviewInput} />
        </Field>
        {fields}
      </div>
      {below}
      <Button type="submit" disabled={pending || disabled}>
        {pending ? submit.pending : submit.label}
      </Button>
      {outcome.message && (
        <Alert compact tone={outcome.ok ? "success" : "error"}>
          {outcome.message}
        </Alert>
      )}
      {outcome.after}
    </ActionForm>
  );
}

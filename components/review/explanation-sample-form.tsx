"use client";
// Draws an explanation review sample: a chain-of-thought run, the precision wanted per model (the sample is sized for
// it, within strata model × statistic × context), the reviewers (two per explanation by default) and gold — through the
// one review assignment form (./review-assignment-form.tsx). The seed is the run's own
// (lib/features/explanations/sample.ts): nobody who has read the explanations picks it.
import Link from "next/link";
import { useActionState } from "react";
import { createExplanationSampleAction, type SampleFormState } from "@/app/review/explanations/actions";
import { Input } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { ReviewAssignmentForm, reviewInput } from "./review-assignment-form";

export function ExplanationSampleForm({ runs, people }: { runs: Array<{ id: string; name: string }>; people: Array<{ id: string; name: string }> }) {
  const [state, action, pending] = useActionState<SampleFormState, FormData>(createExplanationSampleAction, {});
  return (
    <ReviewAssignmentForm
      kind="explanations"
      action={action}
      pending={pending}
      people={people}
      overlapDefault={2}
      disabled={runs.length === 0}
      submit={{ label: "Draw the sample and deal it", pending: "Sampling…" }}
      fields={
        <>
          <Field label="Chain-of-thought run">
            <select id="es-run" name="runId" required className={reviewInput}>
              {runs.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Precision per model (± points, 95 %)"
            hint="The sample is sized so each model's prevalence is known to about this (worst case, 50 %); rarer errors come out tighter."
          >
            <Input id="es-precision" name="halfWidthPoints" type="number" min={2} max={50} defaultValue={10} className={reviewInput} />
          </Field>
        </>
      }
      outcome={{
        ok: state.ok,
        message: state.message,
        after: state.ok && state.href && (
          <Link className="underline" href={state.href}>
            Open the queue
          </Link>
        ),
      }}
    />
  );
}

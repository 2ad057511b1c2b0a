"use client";
// Draws an explanation review sample: a chain-of-thought run, the precision wanted per model (the sample is sized for
// it, within strata model × statistic × context), the reviewers (two per explanation by default) and gold. The seed is
// the run's own (lib/features/explanations/sample.ts): nobody who has read the explanations picks it.
import Link from "next/link";
import { useActionState } from "react";
import { createExplanationSampleAction, type SampleFormState } from "@/app/review/explanations/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";

const input = "mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1 text-sm";

export function ExplanationSampleForm({ runs, people }: { runs: Array<{ id: string; name: string }>; people: Array<{ id: string; name: string }> }) {
  const [state, action, pending] = useActionState<SampleFormState, FormData>(createExplanationSampleAction, {});
  return (
    <ActionForm action={action} className="space-y-3 text-sm">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name">
          <Input id="es-name" name="name" required defaultValue="Explanation sample" className={input} />
        </Field>
        <Field label="Chain-of-thought run">
          <select id="es-run" name="runId" required className={input}>
            {runs.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </Field>
        <fieldset>
          <legend className="text-xs text-slate-500">Reviewers</legend>
          <div className="mt-0.5 max-h-32 overflow-auto rounded-md border border-slate-300 px-2 py-1">
            {people.length === 0 && (
              <span className="text-xs text-slate-500">No account may review explanations yet: invite reviewers or annotators on the Users page.</span>
            )}
            {people.map((p) => (
              <label key={p.id} className="flex items-center gap-2">
                <Input type="checkbox" name="annotators" value={p.id} /> {p.name}
              </label>
            ))}
          </div>
        </fieldset>
        <Field
          label="Precision per model (± points, 95 %)"
          hint="The sample is sized so each model's prevalence is known to about this (worst case, 50 %); rarer errors come out tighter."
        >
          <Input id="es-precision" name="halfWidthPoints" type="number" min={2} max={50} defaultValue={10} className={input} />
        </Field>
        <Field label="Reviewers per explanation" hint="Two by default: agreement (Krippendorff's alpha) and the judge's check need doubly read explanations.">
          <Input id="es-overlap" name="overlap" type="number" min={1} max={10} defaultValue={2} className={input} />
        </Field>
        <Field
          label="Gold explanations (% of each queue)"
          hint="This run's explanations an admin marked gold (before drawing), dealt blind among the rest to measure each reviewer (0: none)."
        >
          <Input id="es-gold" name="goldPercent" type="number" min={0} max={50} defaultValue={0} className={input} />
        </Field>
      </div>
      <Button type="submit" disabled={pending || runs.length === 0}>
        {pending ? "Sampling…" : "Draw the sample and deal it"}
      </Button>
      {state.message && (
        <Alert tone={state.ok ? "success" : "error"}>
          {state.message}{" "}
          {state.href && (
            <Link className="underline" href={state.href}>
              Open the queue
            </Link>
          )}
        </Alert>
      )}
    </ActionForm>
  );
}

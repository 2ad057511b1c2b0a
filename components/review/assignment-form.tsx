"use client";
// The face review's assignment: a seeded sample of each model's labelled images from the chosen runs, dealt through the
// one review assignment form (./review-assignment-form.tsx). The seed is the runs' own (lib/features/review/assignments.ts).
import Link from "next/link";
import { useActionState } from "react";
import { createAssignmentAction, type AssignmentFormState } from "@/app/review/actions";
import { Input } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { ReviewAssignmentForm, reviewInput } from "./review-assignment-form";

/** `people`: the accounts that may review faces; an assignment deals images to some of them (by account). */
export function AssignmentForm({ runs, people }: { runs: Array<{ id: string; name: string }>; people: Array<{ id: string; name: string }> }) {
  const [state, action, pending] = useActionState<AssignmentFormState, FormData>(createAssignmentAction, {});
  return (
    <ReviewAssignmentForm
      kind="faces"
      action={action}
      pending={pending}
      people={people}
      submit={{ label: "Deal assignment", pending: "Dealing…" }}
      fields={
        <>
          <Field label="Images per model (paper: 25)">
            <Input id="as-per-model" name="perModel" type="number" min={1} defaultValue={25} className={reviewInput} />
          </Field>
        </>
      }
      below={
        <fieldset>
          <legend className="text-xs text-slate-500">Runs to sample from</legend>
          {runs.length === 0 && <p className="text-slate-500">No text-to-image run has images yet.</p>}
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            {runs.map((r) => (
              <label key={r.id} className="flex items-center gap-2">
                <Input type="checkbox" name="runIds" value={r.id} /> {r.name}
              </label>
            ))}
          </div>
        </fieldset>
      }
      outcome={{
        ok: state.ok,
        message: state.message,
        after: state.links && (
          <ul className="list-disc pl-5">
            {state.links.map((l) => (
              <li key={l.annotator}>
                {people.find((p) => p.id === l.annotator)?.name ?? l.annotator}:{" "}
                <Link href={l.href} className="text-indigo-700 underline">
                  the assignment’s queue
                </Link>{" "}
                (each annotator opens it signed in as themselves)
              </li>
            ))}
          </ul>
        ),
      }}
    />
  );
}

"use client";

import Link from "next/link";
import { useActionState } from "react";
import { createAssignmentAction, type AssignmentFormState } from "@/app/review/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";

const input = "mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1 text-sm";

/** `people`: the accounts that may review faces; an assignment deals images to some of them (by account). */
export function AssignmentForm({ runs, people }: { runs: Array<{ id: string; name: string }>; people: Array<{ id: string; name: string }> }) {
  const [state, action, pending] = useActionState<AssignmentFormState, FormData>(createAssignmentAction, {});
  return (
    <ActionForm action={action} className="space-y-3 text-sm">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name">
          <Input id="as-name" name="name" required defaultValue="Validation sample" className={input} />
        </Field>
        <fieldset>
          <legend className="text-xs text-slate-500">Annotators</legend>
          <div className="mt-0.5 max-h-32 overflow-auto rounded-md border border-slate-300 px-2 py-1">
            {people.length === 0 && <span className="text-xs text-slate-500">No account may review faces yet: invite annotators on the Users page.</span>}
            {people.map((p) => (
              <label key={p.id} className="flex items-center gap-2">
                <Input type="checkbox" name="annotators" value={p.id} /> {p.name}
              </label>
            ))}
          </div>
        </fieldset>
        <Field label="Images per model (paper: 25)">
          <Input id="as-per-model" name="perModel" type="number" min={1} defaultValue={25} className={input} />
        </Field>
        <Field label="Annotators per image (blank: all)">
          <Input id="as-overlap" name="overlap" type="number" min={1} className={input} />
        </Field>
        <Field label="Gold faces (% of each queue)" hint="Reviewed faces an admin marked gold, served blind to measure accuracy (0: none).">
          <Input id="as-gold" name="goldPercent" type="number" min={0} max={50} step={1} defaultValue={5} className={input} />
        </Field>
        <Field label="Seed">
          <Input id="as-seed" name="seed" type="number" min={0} defaultValue={1} className={input} />
        </Field>
      </div>
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
      <Button type="submit" disabled={pending}>
        {pending ? "Dealing…" : "Deal assignment"}
      </Button>
      {state.message && (
        <Alert compact tone={state.ok ? "success" : "error"}>
          {state.message}
        </Alert>
      )}
      {state.links && (
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
      )}
    </ActionForm>
  );
}

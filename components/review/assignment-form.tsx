"use client";

import Link from "next/link";
import { useActionState } from "react";
import { createAssignmentAction, type AssignmentFormState } from "@/app/review/actions";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";

const input = "mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1 text-sm";

export function AssignmentForm({ runs }: { runs: Array<{ id: string; name: string }> }) {
  const [state, action, pending] = useActionState<AssignmentFormState, FormData>(createAssignmentAction, {});
  return (
    <ActionForm action={action} className="space-y-3 text-sm">
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor="as-name" className="text-xs text-slate-500">
            Name
          </label>
          <input id="as-name" name="name" required defaultValue="Validation sample" className={input} />
        </div>
        <div>
          <label htmlFor="as-annotators" className="text-xs text-slate-500">
            Annotators (comma separated)
          </label>
          <input id="as-annotators" name="annotators" required placeholder="ana, ben, chen" className={input} />
        </div>
        <div>
          <label htmlFor="as-per-model" className="text-xs text-slate-500">
            Images per model (paper: 25)
          </label>
          <input id="as-per-model" name="perModel" type="number" min={1} defaultValue={25} className={input} />
        </div>
        <div>
          <label htmlFor="as-overlap" className="text-xs text-slate-500">
            Annotators per image (blank: all)
          </label>
          <input id="as-overlap" name="overlap" type="number" min={1} className={input} />
        </div>
        <div>
          <label htmlFor="as-seed" className="text-xs text-slate-500">
            Seed
          </label>
          <input id="as-seed" name="seed" type="number" min={0} defaultValue={1} className={input} />
        </div>
      </div>
      <fieldset>
        <legend className="text-xs text-slate-500">Runs to sample from</legend>
        {runs.length === 0 && <p className="text-slate-500">No text-to-image run has images yet.</p>}
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {runs.map((r) => (
            <label key={r.id} className="flex items-center gap-2">
              <input type="checkbox" name="runIds" value={r.id} /> {r.name}
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending ? "Dealing…" : "Deal assignment"}
      </Button>
      {state.message && (
        <p role={state.ok ? "status" : "alert"} className={state.ok ? "text-emerald-700" : "text-rose-700"}>
          {state.message}
        </p>
      )}
      {state.links && (
        <ul className="list-disc pl-5">
          {state.links.map((l) => (
            <li key={l.annotator}>
              <Link href={l.href} className="text-indigo-700 underline">
                {l.annotator}’s queue
              </Link>
            </li>
          ))}
        </ul>
      )}
    </ActionForm>
  );
}

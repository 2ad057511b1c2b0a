"use client";

import { useActionState } from "react";
import { manageModel, type ModelFormState } from "@/app/models/actions";
import { ActionForm } from "@/components/ui/action-form";

/** Archive / restore / delete buttons for one model row; delete asks for confirmation first. */
export function ModelActions({ slug, archived }: { slug: string; archived: boolean }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(manageModel, {});
  const button = "rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 disabled:opacity-50";
  return (
    <div className="flex flex-col items-start gap-1">
      <div className="flex gap-1">
        <ActionForm action={action}>
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="op" value={archived ? "restore" : "archive"} />
          <button type="submit" className={button} disabled={pending} aria-label={`${archived ? "Restore" : "Archive"} ${slug}`}>
            {archived ? "Restore" : "Archive"}
          </button>
        </ActionForm>
        <ActionForm
          action={(data) => {
            if (window.confirm(`Delete the model "${slug}"? This cannot be undone.`)) action(data);
          }}
        >
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="op" value="delete" />
          <button type="submit" className={`${button} text-rose-700`} disabled={pending} aria-label={`Delete ${slug}`}>
            Delete
          </button>
        </ActionForm>
      </div>
      {state.message && (
        <span role={state.ok ? "status" : "alert"} className={`text-xs ${state.ok ? "text-emerald-700" : "text-rose-700"}`}>
          {state.message}
        </span>
      )}
    </div>
  );
}

"use client";

import { startTransition, useActionState } from "react";
import { manageModel, type ModelFormState } from "@/app/models/actions";
import { ActionForm } from "@/components/ui/action-form";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Alert } from "@/components/ui/alert";
import { Input } from "@/components/ui/input";

/** Archive / restore / delete buttons for one model row; delete asks for confirmation first. */
export function ModelActions({ slug, archived }: { slug: string; archived: boolean }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(manageModel, {});
  const button = "rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 disabled:opacity-50";
  return (
    <div className="flex flex-col items-start gap-1">
      <div className="flex gap-1">
        <ActionForm action={action}>
          <Input type="hidden" name="slug" value={slug} />
          <Input type="hidden" name="op" value={archived ? "restore" : "archive"} />
          <button type="submit" className={button} disabled={pending} aria-label={`${archived ? "Restore" : "Archive"} ${slug}`}>
            {archived ? "Restore" : "Archive"}
          </button>
        </ActionForm>
        <ConfirmDialog
          title={`Delete the model “${slug}”?`}
          description="This cannot be undone. A model that runs or images refer to cannot be deleted: archive it instead."
          confirmLabel="Delete model"
          onConfirm={() => {
            const data = new FormData();
            data.set("slug", slug);
            data.set("op", "delete");
            startTransition(() => action(data));
          }}
          trigger={
            <button type="button" className={`${button} text-rose-700`} disabled={pending} aria-label={`Delete ${slug}`}>
              Delete
            </button>
          }
        />
      </div>
      {state.message && (
        <Alert compact tone={state.ok ? "success" : "error"} className="text-xs">
          {state.message}
        </Alert>
      )}
    </div>
  );
}

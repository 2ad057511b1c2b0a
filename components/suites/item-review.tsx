"use client";

// Verify or dispute one content item; a dispute needs a note saying what is wrong.
import { useActionState, useState } from "react";
import { reviewItemAction, type ItemReviewState } from "@/app/benchmark/suites/[suiteId]/actions";
import { Input } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

export function ItemReview({ suiteId, itemId }: { suiteId: string; itemId: string }) {
  const [state, action, pending] = useActionState<ItemReviewState, FormData>(reviewItemAction, {});
  const [disputing, setDisputing] = useState(false);
  return (
    <form action={action} className="flex flex-wrap items-start gap-2 text-xs" aria-label={`Review ${itemId}`}>
      <Input type="hidden" name="suiteId" value={suiteId} />
      <Input type="hidden" name="itemId" value={itemId} />
      {disputing ? (
        <>
          <label className="sr-only" htmlFor={`note-${itemId}`}>
            What is wrong
          </label>
          <Input
            id={`note-${itemId}`}
            name="note"
            required
            maxLength={2000}
            placeholder="what is wrong, with a source"
            className="w-64 rounded border border-slate-300 px-2 py-1"
          />
          <button
            type="submit"
            name="state"
            value="disputed"
            disabled={pending}
            className="rounded border border-red-300 px-2 py-1 text-red-800 hover:bg-red-50"
          >
            Save dispute
          </button>
          <button type="button" onClick={() => setDisputing(false)} className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100">
            Cancel
          </button>
        </>
      ) : (
        <>
          <button
            type="submit"
            name="state"
            value="verified"
            disabled={pending}
            className="rounded border border-emerald-300 px-2 py-1 text-emerald-800 hover:bg-emerald-50"
          >
            Verify
          </button>
          <button type="button" onClick={() => setDisputing(true)} className="rounded border border-red-300 px-2 py-1 text-red-800 hover:bg-red-50">
            Dispute…
          </button>
        </>
      )}
      {state.message && <Alert compact>{state.message}</Alert>}
    </form>
  );
}

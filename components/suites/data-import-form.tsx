"use client";

// An admin's upload of a suite's data files (e.g. the official DoFaiR CSVs): read, validated whole, stored as a content
// version of its own. The server checks sizes before reading and refuses the whole set on any bad row, naming it.
import { useActionState } from "react";
import { importSuiteDataAction, type DataImportState } from "@/app/benchmark/suites/[suiteId]/actions";
import { Input } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";

export function DataImportForm({ suiteId, describe }: { suiteId: string; describe: string }) {
  const [state, action, pending] = useActionState<DataImportState, FormData>(importSuiteDataAction, {});
  return (
    <form action={action} className="space-y-2 text-sm" aria-label="Import content from files">
      <Input type="hidden" name="suiteId" value={suiteId} />
      <label className="flex flex-col gap-1">
        <span>Files: {describe}</span>
        <Input type="file" name="files" multiple accept=".csv,text/csv" required className="text-sm" />
      </label>
      <button type="submit" disabled={pending} className="rounded bg-indigo-600 px-3 py-1 font-medium text-white hover:bg-indigo-700 disabled:opacity-50">
        {pending ? "Reading…" : "Import"}
      </button>
      {state.message && <Alert className="whitespace-pre-line">{state.message}</Alert>}
      {state.ok && <Alert tone="success">{state.ok}</Alert>}
    </form>
  );
}

"use client";

// An admin's upload of a suite's data files (e.g. the official DoFaiR CSVs): read, validated whole, stored as a content
// version of its own. Sizes are checked here before anything is sent, and again by the server before it reads; the
// server refuses the whole set on any bad row, naming it.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Input } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";
import { DATA_FILE_LIMITS, megabytes } from "@/lib/suites/data-limits";

/** What is wrong with the chosen files before sending them, or null. */
function tooLarge(files: File[]): string | null {
  if (files.length > DATA_FILE_LIMITS.maxFiles) return `${files.length} files: at most ${DATA_FILE_LIMITS.maxFiles}`;
  const big = files.find((f) => f.size > DATA_FILE_LIMITS.maxFileBytes);
  if (big) return `${big.name}: more than ${megabytes(DATA_FILE_LIMITS.maxFileBytes)}`;
  const total = files.reduce((a, f) => a + f.size, 0);
  if (total > DATA_FILE_LIMITS.maxUploadBytes * 0.95) return `${megabytes(total)} in all: at most ${megabytes(DATA_FILE_LIMITS.maxUploadBytes)} per import`;
  return null;
}

export function DataImportForm({ suiteId, describe }: { suiteId: string; describe: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [state, setState] = useState<{ message?: string; ok?: string }>({});
  return (
    <form
      className="space-y-2 text-sm"
      aria-label="Import content from files"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const files = form.getAll("files").filter((f): f is File => f instanceof File && f.size > 0);
        if (!files.length) return setState({ message: "choose the files to import" });
        const refused = tooLarge(files);
        if (refused) return setState({ message: refused });
        setPending(true);
        setState({});
        try {
          const res = await fetch(`/api/suites/${encodeURIComponent(suiteId)}/data`, { method: "POST", body: form });
          const body = (await res.json().catch(() => ({}))) as { error?: string; version?: string; created?: boolean };
          if (!res.ok) return setState({ message: body.error ?? `the server refused the import (HTTP ${res.status})` });
          setState({ ok: `${body.created ? "Imported" : "Already imported"}: content ${body.version}. Choose it under Content when launching a run.` });
          router.refresh();
        } catch {
          setState({ message: "The server could not be reached." });
        } finally {
          setPending(false);
        }
      }}
    >
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

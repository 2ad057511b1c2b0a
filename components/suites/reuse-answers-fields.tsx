"use client";

// "Reuse earlier answers": closed by default — a run's answers are its own unless the person launching asks for
// another run's (by id) or for any run's within an age (lib/results/answer-reuse.ts). Each reused outcome says where
// and when it was obtained, on the run page, in exports and in evidence bundles.
import { Input } from "@/components/ui/input";

export function ReuseAnswersFields({ err }: { err: (name: string) => string | undefined }) {
  const open = Boolean(err("reuseFrom") || err("reuseMaxAge"));
  return (
    <details className="rounded-md border border-slate-200 p-3 text-sm" open={open}>
      <summary className="cursor-pointer font-medium">Reuse earlier answers (optional)</summary>
      <p className="mt-2 max-w-prose text-xs text-slate-600">
        Left empty, every answer is obtained for this run, so two runs are two independent samples. Reused answers cost nothing, but they are another run&apos;s
        sample: use them to re-score or extend a run, not to re-audit a model that may have changed.
      </p>
      <div className="mt-2 flex flex-wrap gap-4">
        <label className="flex flex-col gap-1">
          From run (id)
          <Input
            type="text"
            name="reuseFrom"
            maxLength={64}
            placeholder="e.g. cmh3…"
            aria-invalid={!!err("reuseFrom")}
            className={`w-64 rounded-md border px-2 py-1 font-mono ${err("reuseFrom") ? "border-red-500" : "border-slate-300"}`}
          />
          {err("reuseFrom") && <span className="text-xs text-red-700">{err("reuseFrom")}</span>}
        </label>
        <label className="flex flex-col gap-1">
          Obtained within
          <Input
            type="text"
            name="reuseMaxAge"
            maxLength={20}
            placeholder="e.g. 30d, 12h"
            aria-invalid={!!err("reuseMaxAge")}
            className={`w-40 rounded-md border px-2 py-1 ${err("reuseMaxAge") ? "border-red-500" : "border-slate-300"}`}
          />
          {err("reuseMaxAge") && <span className="text-xs text-red-700">{err("reuseMaxAge")}</span>}
        </label>
      </div>
    </details>
  );
}

import type { ReactNode } from "react";

/** A prompt exactly as sent: plain text, whitespace preserved, never interpreted as HTML. */
export function PromptBlock({ label, children, meta }: { label: ReactNode; children: string; meta?: ReactNode }) {
  return (
    <figure className="space-y-1">
      <figcaption className="flex flex-wrap items-center gap-2 text-xs font-semibold text-slate-600">
        {label}
        {meta}
      </figcaption>
      <pre className="whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800">
        {children}
      </pre>
    </figure>
  );
}

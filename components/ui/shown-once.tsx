"use client";
// A secret the server shows once (a new token, a webhook's signing secret): read-only, selected on focus, with a Copy
// button that says when it has copied.
import { useState } from "react";
import { Input } from "./input";

export function ShownOnce({ value, label, testId }: { value: string; label: string; testId: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  return (
    <div className="mt-2 flex items-center gap-2">
      <Input
        readOnly
        value={value}
        aria-label={label}
        data-testid={testId}
        onFocus={(e) => e.currentTarget.select()}
        className="block w-full font-mono text-xs"
      />
      <button
        type="button"
        className="shrink-0 rounded-md px-2 py-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-100"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied("yes");
          } catch {
            setCopied("no"); // no clipboard access (an insecure context): the field is selected for Ctrl-C instead
          }
        }}
      >
        {copied === "yes" ? "Copied" : "Copy"}
      </button>
      {copied === "no" && (
        <span role="status" className="text-xs text-slate-600">
          Select the field and copy it by hand.
        </span>
      )}
    </div>
  );
}

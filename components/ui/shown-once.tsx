"use client";
// A secret the server shows once (a new token, a webhook's signing secret): read-only, selected on focus for copying.
import { Input } from "./input";

export function ShownOnce({ value, label, testId }: { value: string; label: string; testId: string }) {
  return (
    <Input
      readOnly
      value={value}
      aria-label={label}
      data-testid={testId}
      onFocus={(e) => e.currentTarget.select()}
      className="mt-2 block w-full font-mono text-xs"
    />
  );
}

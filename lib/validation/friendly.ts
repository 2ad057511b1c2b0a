// Form messages people read: zod's built-in texts ("Too small: expected number to be >=0") turned into the form's own
// voice; messages a schema wrote itself (custom refinements) pass through. Client-safe.
import type { z } from "zod";

const num = (v: unknown) => (typeof v === "bigint" ? v.toString() : typeof v === "number" ? v.toLocaleString("en-US") : String(v));

function friendlyIssue(i: z.core.$ZodIssue): string {
  // A message the schema wrote itself is already the form's voice.
  if (!/^(Too small|Too big|Invalid)/.test(i.message)) return i.message;
  switch (i.code) {
    case "too_small":
      if (i.origin === "string") return Number(i.minimum) <= 1 ? "required" : `at least ${num(i.minimum)} characters`;
      if (i.origin === "array" || i.origin === "set") return Number(i.minimum) <= 1 ? "choose at least one" : `choose at least ${num(i.minimum)}`;
      return `must be ${i.inclusive ? "at least" : "more than"} ${num(i.minimum)}`;
    case "too_big":
      if (i.origin === "string") return `at most ${num(i.maximum)} characters`;
      if (i.origin === "array" || i.origin === "set") return `choose at most ${num(i.maximum)}`;
      return `must be ${i.inclusive ? "at most" : "less than"} ${num(i.maximum)}`;
    case "invalid_type":
      return i.expected === "number" || i.expected === "int" ? "a number" : "required";
    case "not_multiple_of":
      return `must be a multiple of ${num(i.divisor)}`;
    case "invalid_format":
      return i.message.startsWith("Invalid") ? `not a valid ${i.format === "url" ? "URL" : i.format}` : i.message;
    default:
      return i.message;
  }
}

/**
 * The first friendly message per field (the first path segment), as forms show them. A value no branch of a union
 * accepts is reported as the branch it came closest to (the fewest issues): a form fills one shape of a union.
 */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  const flat = issues.flatMap((i) => (i.code === "invalid_union" && i.errors.length ? [...i.errors].sort((a, b) => a.length - b.length)[0] : [i]));
  for (const i of flat) out[String(i.path[0] ?? "form")] ??= friendlyIssue(i);
  return out;
}
